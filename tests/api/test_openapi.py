"""The OpenAPI schema is valid and drf-spectacular has nothing to warn about (two
serializers of the same name, for one, would give two endpoints one component)."""

from django.core.management import call_command


def test_the_schema_validates_without_a_warning(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    assert (tmp_path / "s.yml").read_text().startswith("openapi:")
