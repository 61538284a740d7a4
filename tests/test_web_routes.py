"""Every route answers a person: a page, a fragment or a redirect, and a message when it cannot
do what was asked; never a 500. The test walks ``app.url_map``: every rule, by GET and by POST,
as a page and as an htmx request, with a real migration (its files uploaded, a rule in its
plan) and real values for every part of the URL.

Through Flask's test client with real files and the real app.
"""

from __future__ import annotations

import io

import pytest
from flask import url_for

from tests.support.web import HX, WEB, new_migration, soup, upload

VALUES = {"name": "odd_columns.csv", "index": 0, "filename": "app.css"}


def _migration(client) -> tuple[str, dict[str, str]]:
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif", "odd_columns.csv")
    rule = {"account": "Checking", "kind": "rename", "target": "Bank"}
    assert client.post(f"{prefix}/map/rules", data=rule, headers=csrf | HX).status_code == 200
    return prefix.rsplit("/", 1)[1], csrf


def _urls(app, mid: str) -> list[tuple[str, str]]:
    """(endpoint, URL) of every rule, the ones that delete last."""
    rules = sorted(app.url_map.iter_rules(), key=lambda r: ("delete" in r.endpoint, r.rule))
    with app.test_request_context():
        return [
            (
                r.endpoint,
                url_for(r.endpoint, **{a: (VALUES | {"mid": mid})[a] for a in r.arguments}),
            )
            for r in rules
        ]


def test_the_walk_covers_every_route(app):
    endpoints = {e for e, _ in _urls(app, "x" * 32)}
    assert len(endpoints) >= 20
    assert {"jobs.panel", "jobs.cancel", "files.columns", "mapping.check_rule"} <= endpoints


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_every_route_answers_without_a_500(client, app, method, htmx):
    mid, csrf = _migration(client)
    headers = csrf | (HX if htmx else {})
    for endpoint, url in _urls(app, mid):
        with client.open(url, method=method, headers=headers, data={}) as r:
            text = r.get_data(as_text=True)
            where = f"{method} {url} ({endpoint}, {'htmx' if htmx else 'page'})"
            assert r.status_code < 500, f"{where}: {r.status_code}\n{text[:2000]}"
            if r.status_code >= 400:
                assert 'class="message' in text, f"{where}: no message\n{text[:2000]}"
        if endpoint == "home.delete":
            mid, csrf = _migration(client)
            headers = csrf | (HX if htmx else {})


def test_a_300_character_file_name_is_stored_shortened_and_shown_whole(client, app):
    prefix, csrf = new_migration(client)
    given = "Journal " + "x" * 292 + ".iif"
    data = (WEB / "txns.iif").read_bytes()
    r = client.post(
        f"{prefix}/files", data={"files": [(io.BytesIO(data), given)]}, headers=csrf | HX
    )
    assert r.status_code == 200, r.text
    card = r.text
    assert given in card and "IIF transactions" in card
    (stored,) = app.extensions["store"].open(prefix.rsplit("/", 1)[1]).files()
    assert len(stored.name) <= 120 and stored.name.endswith(".iif")


def test_the_job_region_asked_as_a_page_is_the_import_step(client):
    prefix, csrf = new_migration(client)
    r = client.get(f"{prefix}/job")
    assert r.status_code == 303 and r.location.endswith(f"{prefix}/import")
    r = client.post(f"{prefix}/job/cancel", headers=csrf)  # the Cancel form without htmx
    assert r.status_code == 303 and r.location.endswith(f"{prefix}/import")
    r = client.post(f"{prefix}/job/cancel", headers=csrf | HX)
    assert r.status_code == 200 and 'id="job"' in r.text


def test_a_wrong_type_typed_on_the_map_step_is_said_beside_it(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    typed = {"account": "Checking", "kind": "retype", "target": "Savings account"}
    r = client.post(f"{prefix}/map/check", data=typed, headers=csrf | HX)
    assert r.status_code == 200
    assert "“Savings account” is not an account type" in soup(r).text and "BANK" in r.text
    r = client.post(f"{prefix}/map/rules", data=typed, headers=csrf | HX)
    assert r.status_code == 422 and "“Savings account” is not an account type" in soup(r).text
    r = client.post(
        f"{prefix}/map/rules", data=typed | {"target": "other current asset"}, headers=csrf | HX
    )
    assert r.status_code == 200 and "Make “Checking” an asset account" in soup(r).text
    edit = {"account": "Checking", "name": "Checking", "type": "Savings account"}
    r = client.post(f"{prefix}/map/edit", data=edit, headers=csrf | HX)
    assert r.status_code == 422 and "“Savings account” is not an account type" in soup(r).text
