from __future__ import annotations

import re
from pathlib import Path

import pytest

from omegad.config import KEYS, Config, ConfigError, load_config

REPO = Path(__file__).resolve().parents[2]


def test_every_key_is_documented_and_every_documented_key_exists() -> None:
    doc = (REPO / "docs" / "configuration.md").read_text()
    documented = set(re.findall(r"^\| `([a-z_]+\.[a-z_0-9]+)` \|", doc, flags=re.M))
    in_code = {k[0] for k in KEYS}
    assert documented == in_code
    for _name, env, _, _ in KEYS:
        if env:
            assert f"`{env}`" in doc, env


def test_every_key_maps_to_a_config_field() -> None:
    fields = set(Config.__dataclass_fields__)
    assert {k[2] for k in KEYS} <= fields


def test_precedence_file_env_override(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    f.write_text(
        '[server]\nmax_connections = 10\nsocket = "/tmp/a.sock"\n[query]\ndecay_floor = 0.9\n[query.type_weights]\ndecision = 2.0\n'
    )
    cfg = load_config(f, env={"OMEGAD_MAX_CONNECTIONS": "20", "HOME": str(tmp_path)})
    assert cfg.max_connections == 20  # env beats file
    assert cfg.socket_path == Path("/tmp/a.sock")
    assert cfg.decay_floor == 0.9
    assert cfg.type_weights == {"decision": 2.0}
    cfg = load_config(f, env={"HOME": str(tmp_path)}, socket_path=Path("/tmp/b.sock"))
    assert cfg.socket_path == Path("/tmp/b.sock")  # flags beat both
    assert cfg.data_dir == tmp_path / ".local/share/omegad"


def test_defaults_follow_xdg(tmp_path: Path) -> None:
    cfg = load_config(env={"XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/c", "XDG_RUNTIME_DIR": "/r", "HOME": "/h"})
    assert cfg.data_dir == Path("/d/omegad")
    assert cfg.model_cache_dir == Path("/c/omegad/models")
    assert cfg.socket_path == Path("/r/omegad/omegad.sock")


@pytest.mark.parametrize(
    "text, message",
    [
        ("[server]\nmax_conections = 3\n", "unknown key"),
        ("[server]\nmax_connections = -3\n", "positive"),
        ("[server]\nmax_connections = true\n", "integer"),
        ("[index]\nfold_delay_ms = -5\n", "non-negative"),
        ('[index]\nfold_delay_ms = "soon"\n', "integer"),
        ("[maintenance]\nprocess_idle_s = -1\n", "non-negative"),
        ('[maintenance]\nprocess_idle_s = "soon"\n', "non-negative number"),
        ('[query]\nfusion = "magic"\n', "one of"),
        ('[index]\nvector_index = "annoy"\n', "one of"),
        ("[index]\nvector_index = 1\n", "one of"),
        ('[store]\nindex_cache_mb = "big"\n', 'size in MB or "auto"'),
        ("[store]\nindex_cache_mb = -1\n", 'size in MB or "auto"'),
        ('[store]\nack = "later"\n', "one of log, commit"),
        ("[store]\npending_max_rows = 0\n", "positive"),
        ('[store]\npending_max_mb = "lots"\n', "non-negative number"),
        ("[store]\npending_wait_s = -1\n", "non-negative"),
        ('[store]\ncache_fulltext = "maybe"\n', "true or false"),
        ("[query.type_weights]\nbogus = 1.0\n", "unknown memory type"),
        ("not toml at all [", "not valid TOML"),
    ],
)
def test_bad_config_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "c.toml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(f, env={})


def test_bad_env_value(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="OMEGAD_MAX_CONNECTIONS"):
        load_config(env={"OMEGAD_MAX_CONNECTIONS": "many"})


def test_index_cache_is_auto_unless_sized(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    assert load_config(env={}).index_cache_mb == 0  # auto: sized by the indexes
    f.write_text('[store]\nindex_cache_mb = "auto"\n')
    assert load_config(f, env={}).index_cache_mb == 0
    f.write_text("[store]\nindex_cache_mb = 512\n")
    assert load_config(f, env={}).index_cache_mb == 512
    assert load_config(env={"OMEGAD_INDEX_CACHE_MB": "AUTO"}).index_cache_mb == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[store]\nuri = "/var/lib/omegad"\n', "expected a URI such as s3://bucket/prefix"),
        ('[store]\nuri = "ftp://bucket/x"\n', "expected a s3://"),
        ('[store]\nuri = "s3:///prefix"\n', "no bucket"),
        ('[store]\nuri = "s3+ddb://bucket/prefix"\n', "names its DynamoDB table"),
        ('[store]\nstorage_options = "endpoint=x"\n', "expected a table of key = value"),
        ("[store.storage_options]\nendpoint = [1, 2]\n", "endpoint: expected a string, number or boolean"),
        ('[team]\nmaintenance = "sometimes"\n', "expected one of auto, always, never"),
        ('[team]\nhost = "  "\n', "expected a name of 1 to 200 characters"),
    ],
)
def test_bad_team_settings_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(path, env={"HOME": str(tmp_path)})


def test_team_settings_are_read(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    text = '[store]\nuri = "s3://team/mem/"\nvisibility_s = 0.5\n[store.storage_options]\nallow_http = true\nregion = "x"\n'
    path.write_text(text)
    config = load_config(path, env={"HOME": str(tmp_path)})
    assert config.store_uri == "s3://team/mem"
    assert config.store_storage_options == {"allow_http": "true", "region": "x"}
    assert config.store_visibility_s == 0.5 and config.team_maintenance == "auto"
