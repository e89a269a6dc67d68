"""Reads: everything the pages and the API show is computed here, never in views."""
