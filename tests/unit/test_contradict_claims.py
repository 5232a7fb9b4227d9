"""The detectors compare what two texts claim: clauses, quantities with units, each detector on
made-up pairs written for these tests, the subject guards, determinism."""

from __future__ import annotations

import pytest

from omegad.contradictions import clauses as reader
from omegad.contradictions import model
from omegad.contradictions.detect import detect
from omegad.contradictions.model import DETECTOR_VERSION

THRESHOLD = 0.4


def clauses(text: str) -> list[str]:
    return [c.text for c in reader._analyse(text).clauses]


def quantities(text: str) -> list[tuple[str, float, float]]:
    return [(q.dim, q.lo, q.hi) for c in reader._analyse(text).clauses for q in c.quantities]


def kinds(new: str, old: str) -> set[str]:
    d = detect(new, old)
    assert d.flagged(THRESHOLD), (d.confidence, d.signals, d.reason)
    return {s.kind for s in d.signals}


def test_detector_version_is_5() -> None:
    assert DETECTOR_VERSION == 6


# -- clauses ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a semicolon, a dash and "because" each start a clause
        (
            "The archive job compresses logs; it was paused after the migration.",
            ["the archive job compresses logs", "it was paused after the migration"],
        ),
        (
            "The gateway retries twice — the client retries once.",
            ["the gateway retries twice", "the client retries once"],
        ),
        (
            "Builds use a warm cache because cold builds took ten minutes.",
            ["builds use a warm cache", "because cold builds took ten minutes"],
        ),
        # a comma before a new predicate ("and", a pronoun) starts one; a comma in a list does not
        (
            "The wiki moved to Outline, and the old pages were archived.",
            ["the wiki moved to outline", "and the old pages were archived"],
        ),
        ("Lint, format and type checks run on commit.", ["lint , format and type checks run on commit"]),
        # a colon after a key stays in its clause; after a statement it starts one
        ("Default shell: zsh.", ["default shell : zsh"]),
        ("The runner has one rule: never deploy on Fridays.", ["the runner has one rule", "never deploy on fridays"]),
    ],
)
def test_clause_splitting(text: str, expected: list[str]) -> None:
    assert clauses(text) == expected


def test_commit_and_chat_prefixes() -> None:
    # a commit's type goes, its scope stays (as a label); a chat line's speaker is found
    c = reader._analyse("fix(search): drop the stemming filter")
    assert c.clauses[0].text.startswith("search :: drop")
    chat = reader._analyse("ravi: I moved my notes to Logseq")
    assert chat.speaker == "ravi"


# -- quantities ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The lock expires after 5 minutes.", "The lock expires after 300 seconds."),
        ("The cache holds 512 MB.", "The cache holds 0.5 GB."),
        ("We run 3 shards.", "We run three shards."),
        ("The deadline is half an hour.", "The deadline is 30 minutes."),
        ("The queue takes 1,200 jobs.", "The queue takes twelve hundred jobs."),
        ("Sampling is 25%.", "Sampling is a quarter."),
    ],
)
def test_units_normalise_to_one_value(a: str, b: str) -> None:
    qa, qb = quantities(a), quantities(b)
    assert len(qa) == len(qb) == 1
    assert qa[0][1] == pytest.approx(qb[0][1], rel=0.03)


def test_kinds_of_quantities() -> None:
    assert quantities("The lock expires after an hour.") == [("time", 3600.0, 3600.0)]
    assert quantities("The report runs weekly.") == [("period", 604800.0, 604800.0)]
    assert quantities("The report runs every other week.")[0][:2] == ("period", 2 * 604800.0)
    assert quantities("Standup is at 9:15.") == [("clock", 555.0, 555.0)]
    assert quantities("Standup is at two in the afternoon.") == [("clock", 840.0, 840.0)]
    # bounds are ranges, not values
    assert quantities("Pages load in under 2 seconds.") == [("time", 0.0, 2.0)]
    assert quantities("Keep at least 3 replicas.")[0][1:] == (3.0, float("inf"))


def test_quantities_in_a_different_unit_are_the_same_claim() -> None:
    assert not detect("Locks expire after 300 seconds.", "Locks expire after 5 minutes.").flagged(THRESHOLD)
    assert not detect("Snapshots are capped at 1,024 KB.", "Snapshots are capped at 1 MB.").flagged(THRESHOLD)
    assert "value_change" in kinds("Locks now expire after an hour.", "Locks expire after 5 minutes.")


def test_numbers_that_name_are_not_values() -> None:
    assert not detect("Ticket 4512 is about the login page.", "Ticket 4511 is about the login page.").flagged(THRESHOLD)
    assert not detect("The 2024 report covers churn.", "The 2023 report covers churn.").flagged(THRESHOLD)


# -- each detector, on pairs written for this test -----------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "signal"),
    [
        # negation: a denial of the same claim, in other words and another order
        ("The billing job emails a receipt.", "Receipts are not emailed by the billing job.", "negation"),
        ("The sidecar proxies gRPC traffic.", "The sidecar stopped proxying gRPC traffic.", "negation"),
        ("The CLI caches tokens in the keychain.", "The CLI does not keep tokens in the keychain.", "negation"),
        # antonym: a state moves to its other pole, whatever else the newer text adds
        (
            "Webhooks are delivered synchronously.",
            "Webhooks are delivered asynchronously by a queue worker.",
            "antonym",
        ),
        ("The metrics endpoint is public.", "The metrics endpoint is private, behind the VPN.", "antonym"),
        ("Tracing is enabled in the worker.", "The worker ships with tracing switched off.", "antonym"),
        # preference change: another product in the same role, or the old one given up
        ("Kim edits code in Sublime Text.", "Kim edits code in Helix these days.", "preference_change"),
        ("The team writes infra in Pulumi.", "The team moved its infra from Pulumi to OpenTofu.", "preference_change"),
        ("Metrics go to Graphite.", "Metrics go to VictoriaMetrics instead of Graphite.", "preference_change"),
        # value change: a quantity, a value, the single holder of a role
        ("The upload limit is 20 MB.", "Uploads can now be up to 50 MB.", "value_change"),
        ("The export runs at 01:00.", "The export runs at 04:30 now.", "value_change"),
        ("Ines owns the search service.", "The search service is owned by Malik.", "value_change"),
        ("The status page lives at status.acme.dev.", "The status page moved to acme.dev/status.", "value_change"),
        # temporal override: the newer text says things changed, and something did
        ("The docs build with Sphinx.", "Since the redesign, the docs build with MkDocs.", "temporal_override"),
    ],
)
def test_each_detector(old: str, new: str, signal: str) -> None:
    assert signal in kinds(new, old)


def test_confidence_is_a_noisy_or_below_one() -> None:
    d = detect("Since the redesign, the docs build with MkDocs.", "The docs build with Sphinx.")
    assert len(d.signals) >= 2
    keep = 1.0
    for s in d.signals:
        keep *= 1 - s.score
    assert d.confidence == pytest.approx(1 - keep, abs=1e-4) and d.confidence < 1


def test_evidence_names_what_changed() -> None:
    (sig,) = detect("Webhooks are delivered asynchronously.", "Webhooks are delivered synchronously.").signals
    assert sig.kind == "antonym" and sig.evidence == "synchronously/asynchronously"
    d = detect("Kim edits code in Helix these days.", "Kim edits code in Sublime Text.")
    assert "sublime text → helix" in {s.evidence for s in d.signals}


# -- guards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "stage"),
    [
        # another environment, platform, person, identifier
        ("The job queue uses Redis in staging.", "The job queue uses RabbitMQ in production.", "scope"),
        ("The Android app uses Retrofit.", "The iOS app uses Alamofire.", "scope"),
        ("Noor prefers light themes.", "Omar prefers dark themes.", "person"),
        ("Incident 311 was caused by the cache.", "Incident 312 was caused by the DNS change.", "identifier"),
        # another thing of the same kind: "orders table" / "invoices table"
        ("The orders table is partitioned.", "The invoices table is not partitioned.", "modifier"),
        # the newer text narrows the claim to a part of it
        ("Logs are kept for 30 days.", "Debug logs are kept for 2 days.", "modifier"),
        ("The API returns JSON.", "The API returns XML in staging.", "scope"),
        # another circumstance on both sides
        ("Sam uses Kotlin for Android work.", "Sam uses Go for backend tooling.", "scope"),
        # too little of the older claim in the newer one
        ("The importer validates CSV headers.", "The exporter does not write CSV headers.", "coverage"),
    ],
)
def test_guards_silence_another_subject(old: str, new: str, stage: str) -> None:
    d = detect(new, old)
    assert not d.flagged(THRESHOLD), (d.signals, d.reason)
    assert d.stage == stage, d.reason


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the newer text says more about the same claim: never silenced for that
        (
            "The nightly export writes to the archive bucket.",
            "The nightly export no longer writes to the archive bucket; it was switched off after the storage audit.",
        ),
        (
            "Thumbnails are generated synchronously in the upload request.",
            "Thumbnails are generated asynchronously by a worker after the upload returns.",
        ),
        (
            "The docs site is built with Docusaurus.",
            "The docs site is built with VitePress now, with a custom theme and a shared font bundle.",
        ),
        # and so may the older one
        (
            "The sync job runs hourly, because the partner API throttles bursts.",
            "The sync job runs every ten minutes now.",
        ),
    ],
)
def test_saying_more_is_not_another_subject(old: str, new: str) -> None:
    assert detect(new, old).flagged(THRESHOLD)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # refinements and restatements
        ("The sync job runs hourly.", "The sync job runs hourly and retries twice on failure."),
        ("Reports are rendered with WeasyPrint.", "Reports are rendered with WeasyPrint from Jinja templates."),
        ("The lock expires after 5 minutes.", "Locks expire after 300 seconds unless renewed."),
        # a denial of something else
        ("We use Redis for rate limits.", "We don't use Redis for job queues."),
        ("Kim likes Rust for CLIs.", "Kim doesn't like Rust macros."),
        # both true: another product named for another role
        ("Errors go to Sentry.", "Uptime checks go to Pingdom."),
        # two changes at once are two objects, not one changed claim
        ("Prettier is enabled in the editor.", "ESLint is disabled in the editor."),
    ],
)
def test_compatible_pairs_stay_silent(old: str, new: str) -> None:
    d = detect(new, old)
    assert not d.flagged(THRESHOLD), (d.signals, d.reason)
    assert d.reason and d.stage != "flagged"


# -- determinism ----------------------------------------------------------------------------------


def test_deterministic_across_calls_and_cold_caches() -> None:
    pairs = [
        ("Webhooks are delivered synchronously.", "Webhooks are delivered asynchronously."),
        ("The upload limit is 20 MB.", "Uploads can now be up to 50 MB."),
        ("Noor prefers light themes.", "Omar prefers dark themes."),
    ]
    first = [detect(new, old) for old, new in pairs]
    model._clear_caches()
    for _ in range(3):
        again = [detect(new, old) for old, new in pairs]
        assert [(d.confidence, d.signals, d.reason) for d in again] == [
            (d.confidence, d.signals, d.reason) for d in first
        ]


# -- round 2: shapes of commit and chat notes (made-up pairs) -------------------------------------


def test_a_comma_before_a_new_subject_and_verb_starts_a_clause() -> None:
    # the second statement names the old choice as gone: it must not hide the swap
    assert clauses("since the cutover the site runs on Render, heroku dynos are scaled to 0") == [
        "since the cutover the site runs on render",
        "heroku dynos are scaled to 0",
    ]
    # a list before a verb, and a place put first, stay one clause
    assert len(clauses("Redis, Postgres and Kafka are used by the worker")) == 1
    assert len(clauses("In the docs repo, pnpm is used.")) == 1


def test_a_parenthesis_is_an_aside_of_its_own() -> None:
    assert clauses("root login is forbidden on the bastion (PermitRootLogin no), checked today") == [
        "root login is forbidden on the bastion , checked today",
        "permitrootlogin no",
    ]
    assert kinds(
        "root login is forbidden on the bastion (PermitRootLogin no)", "root login is allowed on the bastion"
    ) == {"antonym"}


def test_a_rate_written_with_a_slash() -> None:
    assert [(d, lo) for d, lo, _ in quantities("limit is 60 req/min")] == [("rate:count", 1.0)]
    assert "value_change" in kinds(
        "chore: lower the per-key limit to 60 req/min", "The per-key limit is 100 requests per minute."
    )


def test_ports_and_plain_counts_compare_exactly() -> None:
    assert kinds("web port: 8000", "web port 8080") == {"value_change"}
    assert not detect("web port is 8080", "web port 8080").flagged(THRESHOLD)


def test_a_version_used_is_a_value_a_versioned_subject_is_another_thing() -> None:
    assert kinds("The checkout calls the Acme v3 API.", "The checkout calls the Acme v2 API.") == {"value_change"}
    assert detect("The v2 API returns JSON.", "The v1 API returns XML.").stage == "identifier"


def test_a_chat_reporter_is_not_the_subject() -> None:
    # who posted the line is not what it is about; interjections and "re-" say nothing more
    assert "negation" in kinds("leo: the sdk does not cache flags locally", "dana: the sdk caches flags locally")
    assert "antonym" in kinds("uh oh the exports bucket is public", "the exports bucket is private")
    assert "antonym" in kinds("revert: re-enable retries on upload", "fix(upload): disable retries on upload")
