from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web pages"


class AdminConfig(admin_apps.AdminConfig):
    """Django's admin with the site's sign-in limits on its login (web.views.auth.AdminSite)."""

    default = False  # listed by its path in INSTALLED_APPS; WebConfig is the app "web"
    default_site = "web.views.auth.AdminSite"
