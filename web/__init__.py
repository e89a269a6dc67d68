"""The web pages: views, forms, urls, template tags and presenters (charts, CSV, page objects)."""
