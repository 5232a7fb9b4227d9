"""The namespace server's REST client stays out of the process until something uses it
(omegad/storage/deferred.py), and then behaves as if it had been imported all along.

Each case runs in a fresh interpreter: this one has imported lancedb long ago."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run(code: str, tmp_path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(REPO), "TMP_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_lancedb_works_without_the_rest_client(tmp_path: Path) -> None:
    out = run(
        """
        import os, sys
        import omegad.storage  # installs the stand-in
        import lancedb
        import lance_namespace

        client = "lance_namespace_urllib3_client"
        assert "stand-in" in (sys.modules[client].__doc__ or ""), sys.modules[client]
        assert not any(m.startswith(client + ".api") for m in sys.modules), "the REST API was imported"
        db = lancedb.connect(os.environ["TMP_DIR"])
        table = db.create_table("t", data=[{"id": 1, "text": "sqlite for the cache", "vector": [0.0, 1.0]}])
        table.add([{"id": 2, "text": "postgres in production", "vector": [1.0, 0.0]}])
        table.create_fts_index("text")
        print(sorted(r["id"] for r in table.search([1.0, 0.1]).limit(2).to_list()))
        print(table.search("postgres", query_type="fts").limit(1).to_list()[0]["id"])
        assert not any(m.startswith(client + ".api") for m in sys.modules)
        """,
        tmp_path,
    )
    assert out.split() == ["[1,", "2]", "2"]


def test_first_use_imports_the_real_package(tmp_path: Path) -> None:
    out = run(
        """
        import sys
        import omegad.storage
        import lancedb
        import lance_namespace
        import lance_namespace_urllib3_client as early  # the stand-in

        from lance_namespace_urllib3_client import ApiClient, Configuration
        import lance_namespace_urllib3_client.api as api
        real = sys.modules["lance_namespace_urllib3_client"]
        assert real is not early and real.ApiClient is ApiClient and early.ApiClient is ApiClient
        assert api.TableApi.__module__ == "lance_namespace_urllib3_client.api.table_api"
        # the models lance_namespace re-exports are the ones the real package has
        assert lance_namespace.CreateNamespaceResponse is real.CreateNamespaceResponse
        client = ApiClient(Configuration(host="http://127.0.0.1:9"))
        print(type(client).__name__, api.TableApi(client).__class__.__name__)
        """,
        tmp_path,
    )
    assert out.split() == ["ApiClient", "TableApi"]


def test_nothing_is_replaced_once_imported(tmp_path: Path) -> None:
    out = run(
        """
        import sys
        import lance_namespace_urllib3_client as real
        from omegad.storage.deferred import defer_namespace_client
        print(defer_namespace_client(), sys.modules["lance_namespace_urllib3_client"] is real)
        """,
        tmp_path,
    )
    assert out.split() == ["False", "True"]
