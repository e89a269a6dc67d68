"""{% tournament_imports tournament as imports %}: the latest imports, for _imports.html."""

from django import template

from tracker.interchange.selectors.imports import tournament_imports as select_imports

register = template.Library()


@register.simple_tag
def tournament_imports(tournament, limit=10):
    return select_imports(tournament, limit=limit)
