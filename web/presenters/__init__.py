"""Presenters: what the pages (and the API's CSV and page-shaped answers) show.

They turn data from the selectors into page objects (dataclasses), SVG charts and CSV text.
They read through selectors and never write.
"""
