"""Live drafts store table events (tracker/engine/events.py) instead of the logger's steps.

Each stored step becomes the event it was, in its JSON form (``event_to_json``): a
``{"kind": "act", "verb": "call"}`` step is ``{"event": "call"}``, a community card
``{"event": "deal_community", "card": ...}``, a seventh-card choice ``{"event":
"choose_seventh", "up": true}``; the seat, cards, size (``to``) and the ``auto``/``joined``
marks stay. Going back turns every event into its step again. Pure data: no column changes.
"""

from django.db import migrations

_MARKS = ("auto", "joined")


def event_of_step(step: dict) -> dict:
    kind = step.get("kind")
    if kind == "act":
        event = {"event": step.get("verb")}
    elif kind == "community":
        event = {"event": "deal_community", "card": (step.get("cards") or [None])[0]}
    elif kind == "seventh":
        event = {"event": "choose_seventh", "up": step.get("choice") == "up"}
    else:
        event = {"event": kind}
    if kind != "community" and "seat" in step:
        event["seat"] = step["seat"]
    if kind in ("deal", "show") and "cards" in step:
        event["cards"] = step["cards"]
    if kind == "declare":
        event["choice"] = step.get("choice")
    if step.get("to") is not None:
        event["to"] = step["to"]
    event.update({mark: True for mark in _MARKS if step.get(mark)})
    return event


_VERBS = ("bring_in", "complete", "bet", "raise", "call", "check", "fold")


def step_of_event(event: dict) -> dict:
    name = event.get("event")
    if name in _VERBS:
        step = {"kind": "act", "seat": event.get("seat"), "verb": name}
    elif name == "deal_community":
        step = {"kind": "community", "cards": [event.get("card")]}
    elif name == "choose_seventh":
        step = {
            "kind": "seventh",
            "seat": event.get("seat"),
            "choice": "up" if event.get("up") else "down",
        }
    elif name == "declare":
        step = {"kind": "declare", "seat": event.get("seat"), "choice": event.get("choice")}
    else:
        step = {"kind": name, "seat": event.get("seat")}
        if event.get("cards") is not None:
            step["cards"] = event["cards"]
    if event.get("to") is not None:
        step["to"] = event["to"]
    step.update({mark: True for mark in _MARKS if event.get(mark)})
    return step


def _convert(apps, convert) -> None:
    DraftHand = apps.get_model("tracker", "DraftHand")
    for draft in DraftHand.objects.all().only("pk", "steps").iterator():
        steps = [convert(step) for step in draft.steps or []]
        if steps != draft.steps:
            DraftHand.objects.filter(pk=draft.pk).update(steps=steps)


def steps_to_events(apps, schema_editor):
    _convert(apps, event_of_step)


def events_to_steps(apps, schema_editor):
    _convert(apps, step_of_event)


class Migration(migrations.Migration):
    dependencies = [
        ("tracker", "0024_league_calendar"),
    ]

    operations = [
        migrations.RunPython(steps_to_events, events_to_steps),
    ]
