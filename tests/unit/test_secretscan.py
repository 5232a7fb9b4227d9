"""The secret scanner (`omegad.secretscan`) on generated secrets and look-alikes; the samples
are made at run time (`bench/secret_samples.py`), never written down."""

from __future__ import annotations

import base64
import random
import string
import urllib.parse

import pytest

from omegad.secretscan import SecretScanner, redact

from ..helpers import bench_module


def _samples():  # type: ignore[no-untyped-def]
    return bench_module("secret_samples")


@pytest.mark.parametrize("seed", [11, 12])
def test_recall_and_false_positives_on_generated_samples(seed: int) -> None:
    secrets, lookalikes = _samples().generate(seed, per_kind=40, lookalike_rounds=40)
    scanner = SecretScanner()
    missed = [(kind, text) for text, kind in secrets if not scanner.scan(text)]
    flagged = [text for text in lookalikes if scanner.scan(text)]
    assert len(missed) <= 0.02 * len(secrets), missed[:5]
    assert len(flagged) <= 0.01 * len(lookalikes), flagged[:5]


def test_each_kind_is_named_and_redacted_in_place() -> None:
    scanner = SecretScanner()
    secrets, _ = _samples().generate_with_tokens(5, per_kind=3)
    for text, kind, token in secrets:
        hits = scanner.scan(text)
        assert kind in {h.kind for h in hits}, (kind, text)
        clean = redact(text, hits)
        assert f"[redacted:{hits[0].kind}]" in clean
        assert not scanner.scan(clean), clean
        # the secret is gone (a URL's password, not the whole URL)
        secret = token.split(":")[2].split("@")[0] if kind == "basic_auth" else token
        assert secret not in clean and secret[-12:] not in clean, clean
        # what is outside the secret is kept as it was
        assert clean.startswith(text[: hits[0].start]) and clean.endswith(text[hits[-1].end :])


def test_a_private_key_is_redacted_whole() -> None:
    (text, _), *_ = [s for s in _samples().generate(3, per_kind=2)[0] if s[1] == "private_key"]
    clean = redact(text, SecretScanner().scan(text))
    assert "PRIVATE KEY" not in clean and "[redacted:private_key]" in clean


@pytest.mark.parametrize(
    "text",
    [
        "password: <ask-the-team>",
        "API_KEY=${API_KEY}",
        "token: {{ secrets.DEPLOY_TOKEN }}",
        "the secret is in Vault",
        "client_secret: 123e4567-e89b-12d3-a456-426614174000",
        "no secrets here, just prose about passwords and tokens",
    ],
)
def test_placeholders_and_prose_pass(text: str) -> None:
    assert SecretScanner().scan(text) == []


# -- token formats, context and syntax (tokens built at run time, never written whole) -------

_RNG = random.Random(2026)
_AN = string.ascii_letters + string.digits
_HEXD = "0123456789abcdef"
_B64U = _AN + "-_"


def _r(alphabet: str, n: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _uuid() -> str:
    h = _r(_HEXD, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _provider_tokens() -> list[tuple[str, str]]:
    bech32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l".upper()
    return [
        ("age_secret_key", "AGE-SECRET-" + "KEY-1" + _r(bech32, 58)),
        ("databricks_token", "da" + "pi" + _r(_HEXD, 32)),
        ("heroku_key", "HR" + "KU-AA" + _r(_B64U, 58)),
        ("vault_token", "hv" + "s." + _r(_AN, 24)),
        ("grafana_token", "gl" + "sa_" + _r(_AN, 32) + "_" + _r(_HEXD, 8)),
        ("linear_key", "lin" + "_api_" + _r(_AN, 40)),
        ("notion_token", "nt" + "n_" + _r(string.digits, 11) + _r(_AN, 35)),
        ("doppler_token", "dp" + ".st." + "prd." + _r(_AN, 40)),
        ("pulumi_token", "pu" + "l-" + _r(_HEXD, 40)),
        ("postman_key", "PM" + "AK-" + _r(_HEXD, 24) + "-" + _r(_HEXD, 34)),
        ("newrelic_key", "NR" + "AK-" + _r(string.ascii_uppercase + string.digits, 27)),
        ("mapbox_token", "s" + "k.eyJ" + _r(_B64U, 40) + "." + _r(_B64U, 22)),
        ("shopify_token", "shp" + "at_" + _r(_HEXD, 32)),
        ("replicate_token", "r" + "8_" + _r(_AN, 37)),
        ("groq_key", "gs" + "k_" + _r(_AN, 52)),
        ("terraform_token", _r(_AN, 14) + ".atlas" + "v1." + _r(_B64U, 67)),
        ("mailgun_key", "key" + "-" + _r(string.ascii_lowercase + string.digits, 32)),
        ("atlassian_token", "ATATT" + "3xFfGF0" + _r(_B64U, 176) + "=" + _r("0123456789ABCDEF", 8)),
        ("digitalocean_token", "do" + "p_v1_" + _r(_HEXD, 64)),
        ("huggingface_token", "h" + "f_" + _r(string.ascii_letters, 34)),
        ("stripe_key", "wh" + "sec_" + _r(_AN, 32)),
        ("google_oauth_secret", "GOC" + "SPX-" + _r(_B64U, 28)),
        ("docker_token", "dck" + "r_pat_" + _r(_B64U, 27)),
        ("buildkite_token", "bk" + "ua_" + _r(_HEXD, 40)),
        ("rubygems_key", "ruby" + "gems_" + _r(_HEXD, 48)),
        ("sentry_token", "sn" + "tryu_" + _r(_HEXD, 64)),
        ("supabase_key", "sb_" + "secret_" + _r(_AN, 32)),
        ("airtable_token", "pa" + "t" + _r(_AN, 14) + "." + _r(_HEXD, 64)),
        ("figma_token", "fi" + "gd_" + _r(_B64U, 40)),
        ("azure_client_secret", _r(_AN, 3) + "8" + "Q~" + _r(_AN + "~.", 34)),
        ("openrouter_key", "sk-" + "or-v1-" + _r(_HEXD, 64)),
        ("posthog_key", "ph" + "x_" + _r(_AN, 43)),
        ("feature_flag_key", "sd" + "k-" + _uuid()),
        ("feature_flag_key", "secr" + "et-" + _r(_AN, 43)),
        ("feature_flag_key", "default:" + "production." + _r(_HEXD, 64)),
        ("feature_flag_key", "se" + "r." + _r(_AN, 22)),
    ]


@pytest.mark.parametrize(("kind", "token"), _provider_tokens())
def test_provider_token_formats_are_found_in_prose(kind: str, token: str) -> None:
    text = f"can you try with {token}? works for me"
    hits = SecretScanner().scan(text)
    assert [h.kind for h in hits] == [kind], (kind, text)
    assert token not in redact(text, hits)


def _pw() -> str:
    return _r(string.ascii_letters, 6) + _r(string.digits, 3) + "!"


def _basic(user: str, password: str) -> str:
    return base64.b64encode(f"{user}:{password}".encode()).decode()


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"curl -H 'Authorization: Basic {_basic('ci', s)}' https://ci.example.org/job",
        lambda s: f"curl -u deploy:{s} https://nexus.example.org/service/rest",
        lambda s: f"mysql -h db -u app -p{s} -e 'SHOW PROCESSLIST'",
        lambda s: f"machine api.example.org\n  login app\n  password {s}",
        lambda s: f"db.internal:5432:*:app:{s}",
        lambda s: f"jdbc:postgresql://db:5432/app?user=app&password={s}&ssl=true",
        lambda s: f"htpasswd -bc /etc/nginx/.htpasswd admin {s}",
        lambda s: f'requests.get(url, auth=("admin", "{s}"))',
        lambda s: f"      - name: POSTGRES_PASSWORD\n        value: {s}",
        lambda s: f'variable "db_password" {{\n  type = string\n  default = "{s}"\n}}',
        lambda s: f"The staging admin login for billing is app / {s}",
        lambda s: f"the wifi password for the office is {s}",
    ],
)
def test_credentials_named_by_their_syntax(make) -> None:  # type: ignore[no-untyped-def]
    secret = _pw()
    text = make(secret)
    hits = SecretScanner().scan(text)
    clean = redact(text, hits)
    assert hits and secret not in clean, (text, hits)
    assert not SecretScanner().scan(clean), clean


def test_basic_auth_header_is_found_by_decoding_it() -> None:
    value = _basic("jenkins", _pw())
    text = f"GET /api HTTP/1.1\nAuthorization: Basic {value}\nAccept: */*"
    assert value not in redact(text, SecretScanner().scan(text))
    # base64 of a word without a colon is not a user and password
    assert SecretScanner().scan("Basic " + base64.b64encode(b"hello world").decode()) == []


def test_kubernetes_secret_data_is_found() -> None:
    value = base64.b64encode(_pw().encode()).decode()
    user = base64.b64encode(b"app-user").decode()
    text = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: api\ntype: Opaque\n"
        f"data:\n  username: {user}\n  db-password: {value}"
    )
    assert value not in redact(text, SecretScanner().scan(text))
    printed = f"$ kubectl get secret api -o jsonpath='{{.data.token}}'\n{value}"
    assert value not in redact(printed, SecretScanner().scan(printed))
    # a ConfigMap's binary data is not a secret
    assert SecretScanner().scan(f"binaryData:\n  font.woff2: {_r(_AN, 64)}") == []


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"const endpointSecret = '{s}';",
        lambda s: f'{{"apiSecret": "{s}"}}',
        lambda s: f"checkout.cloudflareApiToken={s}",
        lambda s: f"aws configure set aws_secret_access_key {s} --profile ci",
        lambda s: f"Twilio auth token for the SMS sender: {s}",
        lambda s: f"the HMAC secret for verifying webhooks is {s}",
        lambda s: f"here's the API key for prod -> {s}",
        lambda s: f"{s} <- staging access token, expires soon",
        lambda s: f"The dev deploy uses '{s}' as the signing secret.",
        lambda s: f"{s}\n^ session secret for the gateway, keep out of git",
        lambda s: f"Got the API token from dana. Value={s}. Stored nowhere else.",
        lambda s: f'api_key = os.environ.get("API_KEY", "{s}")',
        lambda s: f"git clone https://x-access-token:{s}@git.example.org/org/repo.git",
        lambda s: f"git remote set-url origin https://{s}@git.example.org/org/repo.git",
        lambda s: f"curl -H 'Authorization: Token {s}' https://api.example.org/v1/items",
    ],
)
def test_random_values_beside_secret_names(make) -> None:  # type: ignore[no-untyped-def]
    secret = _r(_AN, 36)
    text = make(secret)
    hits = SecretScanner().scan(text)
    assert hits and secret not in redact(text, hits), text


def test_a_uuid_counts_only_when_named_an_api_key_or_token() -> None:
    uuid = "-".join(_r(_HEXD, n) for n in (8, 4, 4, 4, 12))
    assert SecretScanner().scan(f"HEROKU_API_KEY={uuid}")
    assert SecretScanner().scan(f"Authorization: Bearer {uuid}")
    assert SecretScanner().scan(f"request_id={uuid} status=500") == []
    assert SecretScanner().scan(f"tenant id {uuid}, client id {uuid}") == []


@pytest.mark.parametrize(
    "make",
    [
        lambda: f"Reverted {_r(_HEXD, 40)} - it broke the token refresh flow.",
        lambda: f"x-request-id: {_r(_HEXD, 32)}",
        lambda: f"md5 {_r(_HEXD, 32)}  dump.tar",
        lambda: f"golang.org/x/net v0.1.0 h1:{base64.b64encode(_RNG.randbytes(32)).decode()}",
        lambda: f'"integrity": "sha512-{base64.b64encode(_RNG.randbytes(64)).decode()}"',
        lambda: f"Deploy key (public half): ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(_AN, 43)} ci@host",
        lambda: f"OAuth client id (public) {_r(string.digits, 12)}-{_r(_HEXD, 32)}.apps.googleusercontent.com",
        lambda: "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLE" + "KEY",
        lambda: "https://hooks.slack.com/" + "services/T" + "0" * 8 + "/B" + "0" * 8 + "/" + "X" * 24,
        lambda: "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
        lambda: "clientSecret: {{ .Values.clientSecret }}",
        lambda: "password = var.db_password",
        lambda: 'db_password = os.getenv("DB_PASSWORD")',
        lambda: "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
        lambda: "psql postgres://readonly@db:5432/x  (password comes from ~/.pgpass)",
        lambda: "redis://:<password>@localhost:6379/0",
        lambda: "mongodb+srv://c.mongodb.net/?authMechanism=MONGODB-AWS&authSource=%24external",
        lambda: "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/gateway/db-" + _r(_AN, 6),
        lambda: 'echo -n "$USER:$PASS" | base64',
        lambda: "DB_PASSWORD=\nDB_USER=app",
    ],
)
def test_look_alikes_pass(make) -> None:  # type: ignore[no-untyped-def]
    text = make()
    assert SecretScanner().scan(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "x." * 8000,
        "password: " * 1600,
        "a" * 16000,
        "=" * 16000,
        "pw " * 5000,
        "token is " * 1800,
        "key-" * 4000,
        "Authorization: Bearer " * 700,
        "mnemonic " * 1800,
        "password\nabc123x\n" * 900,
        'cookie="' * 2000,
        "[1," * 5000,
        base64.b64encode(random.Random(1).randbytes(12000)).decode(),
    ],
)
def test_pathological_inputs_are_scanned(text: str) -> None:
    """Each ends (a nested unbounded repetition would not); their times are measured by
    ``bench/eval_secrets.py``, which prints them."""
    for hit in SecretScanner().scan(text):
        assert 0 <= hit.start < hit.end <= len(text)


# -- syntax and context found on a fourth writer's texts --------------------------------------


def _found(text: str, secret: str) -> bool:
    hits = SecretScanner().scan(text)
    clean = redact(text, hits)
    return bool(hits) and secret not in clean and not SecretScanner().scan(clean)


def test_webhook_urls_whose_path_is_the_secret() -> None:
    discord = "https://discord.com/api/" + "webhooks/" + _r(string.digits, 19) + "/" + _r(_B64U, 68)
    guid = "-".join(_r(_HEXD, n) for n in (8, 4, 4, 4, 12))
    teams = (
        "https://acme.webhook.office.com/"
        + "webhookb2/"
        + guid
        + "@"
        + guid
        + "/IncomingWebhook/"
        + _r(_HEXD, 32)
        + "/"
        + guid
        + "/"
        + _r(_B64U, 45)
    )
    for url in (discord, teams):
        assert _found(f"requests.post('{url}', json=payload)", url)


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"Cookie: theme=dark; session={s}; locale=en",
        lambda s: f"Set-Cookie: PHPSESSID={s}; Path=/; HttpOnly",
        lambda s: f"curl https://app.example.org -b 'sessionid={s}'",
        lambda s: f"cookies = {{'connect.sid': '{s}'}}",
        lambda s: f"here's my session cookie so you can see the bug: {s}",
        lambda s: f"paste cookie _shop_session={s} in devtools",
    ],
)
def test_session_cookies(make) -> None:  # type: ignore[no-untyped-def]
    secret = _r(string.ascii_lowercase + string.digits, 26)
    assert _found(make(secret), secret)


def test_analytics_and_preference_cookies_pass() -> None:
    digits = _r(string.digits, 10) + "." + _r(string.digits, 10)
    assert SecretScanner().scan(f"Cookie: _gid=GA1.2.{digits}; consent=analytics:false; locale=en") == []
    assert SecretScanner().scan("Set-Cookie: theme=dark; Path=/; Max-Age=31536000") == []
    assert SecretScanner().scan("the session expired, so log in again") == []


def test_a_url_signature_parameter() -> None:
    sig = urllib.parse.quote(base64.b64encode(_RNG.randbytes(32)).decode(), safe="")
    text = f"https://acct.blob.core.windows.net/c/f.csv?sv=2022-11-02&sp=r&se=2030-01-01&sig={sig}"
    assert _found(text, sig)


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"docker login -u ci -p {s} registry.example.org",
        lambda s: f"az login --service-principal -u app -p '{s}' --tenant t",
        lambda s: f"echo {s} | docker login -u ci --password-stdin",
        lambda s: f"aws ssm put-parameter --name /prod/x --type SecureString --value '{s}'",
        lambda s: f"/etc/postfix/sasl_passwd\n[smtp.example.org]:587 alerts@example.org:{s}",
        lambda s: f"curl -H 'Authorization: SSWS {s}' https://acme.okta.com/api/v1/users",
        lambda s: f'co = cohere.ClientV2("{s}")',
        lambda s: f'mac = hmac.new(b"{s}", body, hashlib.sha256).hexdigest()',
        lambda s: f'jwt.encode(claims, "{s}", algorithm="HS256")',
        lambda s: f"f = Fernet(b'{s}')",
        lambda s: f"AIRFLOW__CORE__FERNET_KEY={s}",
        lambda s: f"AUTH0_CLIENT_SECRET={s}",
        lambda s: f"FIGMA_PAT: {s}",
        lambda s: f"[12:01] ana: which Auth0 client secret does billing use?\n[12:02] bo: it's {s}\n[12:02] ana: thx",
    ],
)
def test_secrets_named_by_commands_code_and_replies(make) -> None:  # type: ignore[no-untyped-def]
    secret = _r(_AN, 32)
    assert _found(make(secret), secret)


def test_openssl_keys_key_files_and_key_literals() -> None:
    key = _r(_HEXD, 64)
    assert _found(f"openssl enc -aes-256-cbc -K {key} -iv {_r(_HEXD, 32)} -in a -out b", key)
    assert _found(f"$ cat config/master.key\n{key[:32]}", key[:32])
    assert _found(f'key = bytes.fromhex("{key}")\ncipher = AES.new(key, AES.MODE_GCM)', key)
    assert SecretScanner().scan(f"$ cat notes.txt\n{key}") == []  # (not a key file: a hash, maybe)


def test_chat_password_replies_and_app_passwords() -> None:
    pw = _pw()
    assert _found(f"[14:38] mei: what's the VPN pw?\n[14:39] hugo: {pw}", pw)
    app = " ".join(_r(string.ascii_lowercase, 4) for _ in range(4))
    assert _found(f"SMTP_PASS={app}", app)
    assert _found(f"swaks --auth-password '{app}' --tls", app)
    assert SecretScanner().scan("Password: will also need some changes") == []


@pytest.mark.parametrize(
    "make",
    [
        lambda: f"password: ENC[AES256_GCM,data:{_r(_AN, 24)},iv:{_r(_AN, 43)}=,type:str]",
        lambda: (
            "kind: SealedSecret\nspec:\n  encryptedData:\n    password: Ag"
            + base64.b64encode(_RNG.randbytes(300)).decode()
        ),
        lambda: f"Twilio Account SID AC{_r(_HEXD, 32)} - the auth token lives in SSM",
        lambda: f"SENTRY_DSN=https://{_r(_HEXD, 32)}@o123456.ingest.sentry.io/765432  (DSNs are public)",
        lambda: f"SecretId: arn:aws:secretsmanager:us-west-2:123456789012:secret:dev/app/stripe_key-{_r(_AN, 6)}",
        lambda: "amqp://guest:guest@localhost:5672/",
        lambda: (
            "postgresql:\n  auth:\n    existingSecret: app-db\n    secretKeys:\n      adminPasswordKey: postgres-password"
        ),
        lambda: f"[memory] image: postgres@sha256:{_r(_HEXD, 64)}",
    ],
)
def test_encrypted_values_identifiers_and_defaults_pass(make) -> None:  # type: ignore[no-untyped-def]
    text = make()
    assert SecretScanner().scan(text) == [], text


def test_a_url_password_repeating_its_user_counts_off_loopback() -> None:
    assert SecretScanner().scan("amqp://guest:guest@mq.example.org:5672/")


def test_mysql_p_with_a_space_prompts_and_names_the_database() -> None:
    assert SecretScanner().scan("mysql -h db.internal -u app -p orders   # prompts for the password") == []
    pw = _pw()
    hits = SecretScanner().scan(f"mysql -h db.internal -u app -p{pw} orders")
    assert [h.kind for h in hits] == ["password"] and pw not in redact(
        f"mysql -u app -p{pw} orders", SecretScanner().scan(f"mysql -u app -p{pw} orders")
    )
    assert SecretScanner().scan(f"sshpass -p {pw} ssh deploy@host")  # sshpass takes it apart


# -- context in any syntax: command-line flags, code, configuration -------------------------

_WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "heron", "indigo", "juniper"]


def _passphrase(sep: str) -> str:
    return sep.join(_RNG.sample(_WORDS, 4))


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"security unlock-keychain -p '{s}' ~/Library/Keychains/ci.keychain-db",
        lambda s: f"unzip -P {s} payroll.zip",
        lambda s: f"7za x -p{s} archive.7z",
        lambda s: f"ldapmodify -H ldap://dir -D cn=admin -w {s} -f change.ldif",
        lambda s: f"ipmitool -H 10.0.0.9 -U root -P {s} sol activate",
        lambda s: f"xfreerdp /u:ops /p:{s} /v:jump01",
        lambda s: f"smbclient //files/share -U backup%{s}",
        lambda s: f"net use \\\\files\\share {s} /user:CORP\\ops",
        lambda s: f"nmcli device wifi connect Lab-5G password {s}",
        lambda s: f"rabbitmqctl change_password app {s}",
        lambda s: f"mc alias set store https://s3.internal ops-key {s}",
        lambda s: f"$p = ConvertTo-SecureString '{s}' -AsPlainText -Force",
        lambda s: f"echo '{s}' | sudo -S apt-get update",
        lambda s: f"redis-cli -h cache -a {s} ping",
        lambda s: f"keytool -importkeystore -srckeystore a.p12 -srcstorepass {s}",
        lambda s: f"xcrun altool --validate-app -f App.ipa -u dev@example.org -p {s}",
        lambda s: f'db, _ := sql.Open("mysql", "app:{s}@tcp(db:3306)/shop")',
        lambda s: f"HTTPBasicAuth('ops', '{s}')",
        lambda s: f"token = jwt.sign(claims, '{s}')",
        lambda s: f"github webhook secret: {s}",
    ],
)
def test_passwords_in_command_lines_and_code(make) -> None:  # type: ignore[no-untyped-def]
    secret = _pw()
    assert _found(make(secret), secret), make(secret)


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"curl -u {s}: https://api.example.org/v1/events",
        lambda s: f'curl "https://maps.example.org/route?lat=1&key={s}"',
        lambda s: f'new AuthenticationHeaderValue("Bearer", "{s}")',
        lambda s: f"curl -H 'Authorization: GenieKey {s}' https://api.example.org",
        lambda s: f"$apiKey = '{s}';",
        lambda s: f"const c = require('sms-vendor')('AC{_r(_HEXD, 32)}', '{s}');",
        lambda s: f"<property>\n  <name>fs.s3a.secret.key</name>\n  <value>{s}</value>\n</property>",
        lambda s: f"geo:\n  provider: acme\n  key: {s}",
        lambda s: f"the shared key for our partner's callbacks, agreed last week, is {s}",
    ],
)
def test_random_values_in_any_syntax(make) -> None:  # type: ignore[no-untyped-def]
    secret = _r(_AN, 32)
    assert _found(make(secret), secret), make(secret)


def test_app_passwords_and_passphrases() -> None:
    apple = "-".join(_r(string.ascii_lowercase, 4) for _ in range(4))
    assert _found(f"notarytool store-credentials --password {apple}", apple)
    assert _found(f"the app-specific password for the Apple ID (dev@example.org): {apple}", apple)
    for sep in "._-":
        phrase = _passphrase(sep)
        assert _found(f"KEYSTORE_PASSWORD={phrase}", phrase)
        assert _found(f"the store password {phrase}", phrase)
    psk = _pw()
    assert _found(f'network={{\n  ssid="lab"\n  psk="{psk}"\n}}', psk)


def test_look_alikes_of_context_pass() -> None:
    digits = "".join(string.digits[1:])
    example = f"{digits}:{string.ascii_uppercase[:3]}{string.ascii_lowercase[3:6]}{string.ascii_uppercase[6:9]}"
    texts = [
        "mysql -u root -p<password> reports",
        "sshpass -f ~/.ssh/vault.pw ssh ops@10.1.2.3",
        f"APNs device token from the test phone: {_r(_HEXD, 64)}",
        'var s = builder.Configuration["Billing:ClientSecret"];',
        "password = Rails.application.credentials.dig(:db, :password)",
        "  ~ password = (sensitive value)",
        f"TWILIO_ACCOUNT_SID=AC{_r(_HEXD, 32)}",
        "mapboxgl.accessToken = 'p" + f"k.eyJ{_r(_B64U, 40)}.{_r(_B64U, 22)}';",
        f"BOT_TOKEN={example}",
        "Use `--password-stdin` instead of `-p` so the password stays out of history.",
        f"Cache restored from key: Linux-node-{_r(_HEXD, 64)}",
        f"[auth] request_id={_uuid()} upstream timed out",
        "gcloud run deploy auth --project shop-prod-482913 --region europe-west1",
        f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(_AN, 8)}Pw/{_r(_AN, 30)} ops@laptop",
        "I reset the admin password; ask ravi for the new one (it's in 1Password).",
        "password: <ask-the-team>",
        "Cookie: _gid=GA1.2.109585434.1737243916; consent=analytics:false",
    ]
    for text in texts:
        assert SecretScanner().scan(text) == [], text


# -- one-time passwords, networks, databases and chat (values made at run time) -------------

_B32 = string.ascii_uppercase + "234567"


def _seed(n: int = 32) -> str:
    while True:
        seed = _r(_B32, n)
        if any(c.isdigit() for c in seed):
            return seed


@pytest.mark.parametrize(
    "make",
    [
        lambda s: "otp" + f"auth://totp/ACME:ana@example.org?secret={s}&issuer=ACME&digits=6",
        lambda s: f'totp = pyotp.TOTP("{s}")',
        lambda s: f"authenticator seed for the shared root account -> {s}",
        lambda s: f"{' '.join(s.lower()[i : i + 4] for i in range(0, len(s), 4))}  <- the 2FA setup key for ops",
    ],
)
def test_otp_seeds(make) -> None:  # type: ignore[no-untyped-def]
    seed = _seed()
    text = make(seed)
    secret = next(
        v for v in (seed, seed.lower(), " ".join(seed.lower()[i : i + 4] for i in range(0, 32, 4))) if v in text
    )
    assert _found(text, secret), text


def test_backup_and_recovery_code_lists() -> None:
    dashed = [f"{_r(string.ascii_lowercase + string.digits, 5)}-{_r(_HEXD, 5)}" for _ in range(8)]
    text = "recovery codes for ana@example.org:\n" + "\n".join(dashed) + "\nkeep these safe"
    assert _found(text, "\n".join(dashed)), text
    digits = " ".join(_r(string.digits, 8) for _ in range(6))
    assert _found(f"backup codes (shared admin): {digits}", digits)
    for prose in (
        "enable TOTP in settings; backup codes go in the team vault, never in notes",
        "recovery codes: regenerated last week, stored in the password manager",
        "the random seed is 1234 for reproducibility",
    ):
        assert SecretScanner().scan(prose) == [], prose


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"WIFI:T:WPA;S:Lab-5G;P:{s};;",
        lambda s: f"WIFI:S:Office;T:WPA2;P:{s};H:false;;",
        lambda s: f"guest wifi: Lab-5G / {s}",
        lambda s: f"wifi in the lab is Lab-5G, key {s}",
        lambda s: f"WLAN-Schl\u00fcssel f\u00fcr Lab-5G: {s}",
        lambda s: f"Passwort f\u00fcr den Testserver qa.example.org: {s}",
        lambda s: f"mot de passe du compte deploy : {s}",
        lambda s: f"\u043f\u0430\u0440\u043e\u043b\u044c \u043e\u0442 \u0441\u0442\u0435\u043d\u0434\u0430: {s}",
        lambda s: f"keycloak \u306e\u30d1\u30b9\u30ef\u30fc\u30c9\u306f {s} \u3067\u3059",
        lambda s: f"CREATE USER 'app'@'%' IDENTIFIED BY '{s}';",
        lambda s: f"$pdo = new PDO('mysql:host=db;dbname=shop', 'app', \"{s}\");",
        lambda s: f'expect "password:"\nsend "{s}\\r"',
        lambda s: f"cqlsh db.internal -u cassandra -p '{s}'",
        lambda s: f"ana: can you log into grafana?\nbo: yes, app_rw and {s}",
        lambda s: f"root password on the jump box is now C={s}",
    ],
)
def test_passwords_of_networks_databases_scripts_and_chats(make) -> None:  # type: ignore[no-untyped-def]
    secret = _pw()
    text = make(secret)
    assert _found(text, secret), text


def test_sentry_dsns_bootstrap_and_legacy_vault_tokens() -> None:
    key = _r(_HEXD, 32)
    dsn = f"https://{key}@o{_r(string.digits, 6)}.ingest.sentry.io/{_r(string.digits, 7)}"
    # a DSN's key is public by Sentry's docs; the legacy "public:secret@" form's secret is not
    assert SecretScanner().scan(f'sentry_sdk.init(dsn="{dsn}")') == []
    secret = _r(_HEXD, 32)
    assert _found(f"RAVEN_DSN=https://{key}:{secret}@sentry.example.com/2", secret)
    alnum = string.ascii_lowercase + string.digits
    token = _r(alnum, 5) + "7." + _r(string.digits, 2) + _r(alnum, 14)
    assert _found(f"kubeadm join 10.0.0.1:6443 --token {token} --discovery-token-ca-cert-hash sha256:x", token)
    vault = "s." + _r(string.ascii_uppercase, 8) + _r(string.ascii_lowercase, 8) + _r(string.digits, 8)
    assert _found(f"vault login {vault}", vault)
    sig = urllib.parse.quote(base64.b64encode(_RNG.randbytes(32)).decode(), safe="")
    assert _found(f'AZURE_SAS_TOKEN="?sv=2022-11-02&ss=b&sp=r&sig={sig}"', sig)
    assert SecretScanner().scan("kubeadm config prints token: abcdef.0123456789abcdef") == []


def test_clients_constructed_with_their_keys() -> None:
    account = "A" + "C" + _r(_HEXD, 32)
    token = _r(_HEXD, 32)
    assert _found(f'TwilioClient.Init("{account}", "{token}");', token)
    assert _found(f"const client = algoliasearch('{_r(string.ascii_uppercase, 10)}', '{token}');", token)
    secret = _r(_AN, 40)
    assert _found(f'let creds = Credentials::new("{_r(_AN, 20)}", "{secret}", None, None, "static");', secret)


def test_look_alikes_of_the_new_context_rules_pass() -> None:
    hexes = _r(_HEXD, 32)
    texts = [
        f"user {_r(_HEXD, 24)} reset their password at 2024-03-23T08:26:13Z",
        f"token refresh failed, correlation id {_uuid()} - retrying",
        f"reverted {_r(_HEXD, 8)} which broke token refresh; the real fix landed in {_r(_HEXD, 40)}",
        f"md5 of the exported secrets.csv (to compare two exports): {hexes}",
        f"secret arn: arn:aws:secretsmanager:eu-west-1:{_r(string.digits, 12)}:secret:prod/api-key-{_r(_AN, 6)}",
        "secret pattern in our hook: (?i)(api[_-]?key|token|secret)\\s*[:=]\\s*[A-Za-z0-9_\\-]{24,}",
        "docker run -e OPENAI_API_KEY -e AWS_SECRET_ACCESS_KEY acme/ledger:6.28.37",
        "postgres://user:password@localhost:5432/dbname  (template from the README)",
        f"2024-01-01T00:00:00Z DEBUG auth: /nix/store/{_r(string.ascii_lowercase + string.digits, 32)}-gnupg-2.4.4/bin",
        f"wlan0: WPA: Key negotiation completed with {':'.join(_r(_HEXD, 2) for _ in range(6))}",
        "docker run -u 1000 -p 8080:80 nginx",
        "mysql -u root -p shop",
    ]
    for text in texts:
        assert SecretScanner().scan(text) == [], text


# -- wallets, VPNs, recovery keys, values named on the next line (values made at run time) ----

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_WORDS = [_r(string.ascii_lowercase, _RNG.randint(3, 8)) for _ in range(200)]


def _b64(n: int) -> str:
    return base64.b64encode(_RNG.randbytes(n)).decode()


@pytest.mark.parametrize(
    "make",
    [
        # documented token formats (prefixes joined from pieces)
        lambda: "cargo login " + "ci" + "o" + _r(_AN, 32),
        lambda: "supabase login --token " + "sb" + "p_" + _r(_HEXD, 40),
        lambda: "TRELLO_TOKEN=" + "AT" + "TA" + _r(_HEXD, 64) + _r("0123456789ABCDEF", 8),
        lambda: "mail key: " + "xkey" + "sib-" + _r(_HEXD, 64) + "-" + _r(_AN, 16),
        lambda: "new Resend('" + "r" + "e_" + _r(_AN, 8) + "_" + _r(_AN, 24) + "')",
        lambda: "TWITCH_OAUTH=" + "oau" + "th:" + _r(string.ascii_lowercase + string.digits, 30),
        lambda: "firebase login:ci printed " + "1/" + "/0" + _r(_B64U, 80),
        lambda: "WIF for the faucet: " + "K" + _r(_B58, 51),
    ],
)
def test_documented_token_formats(make) -> None:  # type: ignore[no-untyped-def]
    text = make()
    secret = text.split()[-1].strip("')").split("=")[-1].split(": ")[-1]
    assert _found(text, secret), text


def test_keys_in_url_paths() -> None:
    hook = _r(string.ascii_lowercase + string.digits, 26)
    assert _found(f"WEBHOOK_URL=https://chat.example.org/hooks/{hook}", hook)
    key = _r(_B64U, 32)
    assert _found("ALCHEMY_URL=https://eth-mainnet.g.alchemy." + f"com/v2/{key}", key)
    user = _r(_AN, 40)
    assert _found(f"curl http://192.168.1.2/api/{user}/lights/3/state -X PUT", user)
    code = _r(_B64U, 54) + "=="
    assert _found(f"https://fn.example.net/api/HttpTrigger?code={code}", code)
    assert SecretScanner().scan("see https://github.com/acme/repo/settings/hooks/123456") == []


def test_wallet_keys_and_mnemonics() -> None:
    words = " ".join(_RNG.choice(_WORDS) for _ in range(12))
    assert _found(f'MNEMONIC="{words}"', words)
    assert _found(f"seed phrase for the hot wallet:\n{words}\nkeep it offline", words)
    keypair = "[" + ",".join(str(b) for b in _RNG.randbytes(64)) + "]"
    assert _found(f"$ cat ~/.config/solana/id.json\n{keypair}", keypair)
    hexkey = "0x" + _r(_HEXD, 64)
    assert _found(f'DEPLOYER_PRIVATE_KEY="{hexkey}"', hexkey)
    prose = "we wrote the seed phrase on paper and locked it away in the office safe downstairs today"
    assert SecretScanner().scan(prose) == []


def test_vpn_and_recovery_keys() -> None:
    psk = _b64(32)
    assert _found(f"[Peer]\nPublicKey = {_b64(32)}\nPresharedKey = {psk}\nAllowedIPs = 10.8.0.2/32", psk)
    static = "\n".join(_r(_HEXD, 32) for _ in range(16))
    block = f"-----BEGIN OpenVPN Static key V1-----\n{static}\n-----END OpenVPN Static key V1-----"
    assert _found(f"<tls-auth>\n{block}\n</tls-auth>", static)
    bitlocker = "-".join(_r(string.digits, 6) for _ in range(8))
    assert _found(f"BitLocker recovery key for LAPTOP-1:\n{bitlocker}", bitlocker)
    account = " ".join(_r(string.digits, 4) for _ in range(4))
    assert _found(f"Mullvad account number for the team: {account}", account)
    grouped = "-".join(_r(string.ascii_uppercase + string.digits, 4) for _ in range(7))
    assert _found(f"Apple ID recovery key for ana@example.org: {grouped}", grouped)
    code = _r(string.digits, 4) + "-" + _r(string.digits, 4)
    assert _found(f"if the key is lost, use backup code {code}", code)
    share = _b64(32)
    assert _found(f"vault operator unseal {share}", share)
    preshared = _pw()
    assert _found(f"crypto isakmp key {preshared} address 10.0.0.1", preshared)


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"{s}\nDB password, verified by ana",
        lambda s: f"{s}\n\nthat's the VPN key; bo asked me to keep it handy",
        lambda s: f"{s}\n^ Hosting API token for ingest, saved today",
        lambda s: f"JSESSIONID\n{s}\napp.example.org\n/\nSession",
        lambda s: f"app.example.org\tTRUE\t/\tTRUE\t0\tconnect.sid\t{s}",
        lambda s: f'{{"cookies": [{{"name": "connect.sid",\n "value": "{s}"}}]}}',
        lambda s: f"curl -H 'X-Functions-Key: {s}' https://fn.example.net/api/x",
        lambda s: f"skopeo copy --src-creds ana:{s} docker://a/b docker://c/d",
        lambda s: f"lftp -u ana,'{s}' sftp://files.example.org",
        lambda s: f"net user svc_backup '{s}' /add /y",
    ],
)
def test_values_named_on_the_next_line_and_in_other_syntax(make) -> None:  # type: ignore[no-untyped-def]
    secret = _r(string.ascii_letters, 12) + _r(string.digits, 4) + "!" + _r(_AN, 8)
    text = make(secret)
    assert _found(text, secret), text


def test_look_alikes_of_encodings_and_masks_pass() -> None:
    prefs = base64.b64encode(b'{"theme":"dark","lang":"fr"}').decode()
    vapid = "B" + _r(_B64U, 86)
    salted = base64.b64encode(b"Salted__" + _RNG.randbytes(32)).decode()
    position = base64.b64encode(b'{"v": "meta.k8s.io/v1", "rv": 81952}').decode()
    texts = [
        f"Set-Cookie: prefs={prefs}; Path=/; Max-Age=31536000",
        f"continue token from kubectl: {position}",
        f"applicationServerKey: urlBase64ToUint8Array('{vapid}')",
        "Stripe says: Invalid API Key provided: " + "sk_" + "live_****" + _r(_AN, 4),
        f"encrypted blob (passphrase is NOT in this note): {salted}",
        f"base64 of 'user-548' is {base64.b64encode(b'user-548').decode()} -- the fixture id",
        "MINIO_ROOT_PASSWORD=minioadmin  # documented default for local dev only",
        "Decision: we stop requiring password changes every 90 days (NIST 800-63B).",
        "thread 'main' panicked at 'API_TOKEN must be set', src/main.rs:14:10",
        "var key = Rfc2898DeriveBytes.Pbkdf2(password, salt, 600_000, HashAlgorithmName.SHA256, 32);",
        "password_hash example: '$2b$12$" + _r(_AN + "./", 53) + "' (bcrypt, never the plaintext)",
        f"{_r(_HEXD, 32)}\nmd5 of the secrets file",
        "\u30d1\u30b9\u30ef\u30fc\u30c9\u306f1Password\u306e\u300cbilling\u300d\u306b\u3042\u308a\u307e\u3059\u3002",
    ]
    for text in texts:
        assert SecretScanner().scan(text) == [], text


def _product_key() -> str:
    # five groups of five, each with a digit and letters (the shape only: the value is random)
    return "-".join(_r("BCDFGHJKMPQRTVWXY", 3) + _r("2346789", 2) for _ in range(5))


def _keytab_b64() -> str:
    # a keytab's version bytes, a positive entry length, then random entry bytes
    raw = bytes([5, 2]) + (70).to_bytes(4, "big") + _RNG.randbytes(70)
    return base64.b64encode(raw).decode()


@pytest.mark.parametrize(
    "make",
    [
        lambda s: f"name,url,username,password,note\nexample.org,https://example.org/login,ana,{s},",
        lambda s: f'"Title","Website","Username","Password"\n"Wiki","https://wiki.example.org","bo","{s}"',
        lambda s: f"| Site | Login | Password |\n|---|---|---|\n| Router | ana | {s} |",
        lambda s: f"Access key ID,Secret access key\nID{_r(string.ascii_uppercase, 16)},{s}{_r(_AN, 20)}",
        lambda s: f'<String>\n\t<Key>Password</Key>\n\t<Value ProtectInMemory="True">{s}</Value>\n</String>',
        lambda s: f"<AdministratorPassword>\n    <Value>{s}</Value>\n</AdministratorPassword>",
        lambda s: f'snmp-server community "{s}" RO 10',
        lambda s: f"set snmp community {s} authorization read-only",
        lambda s: f"rocommunity {s} 10.0.0.0/8",
        lambda s: f"snmpwalk -v2c -c {s} core-sw1.example.net 1.3.6.1.2.1.1",
        lambda s: f'[[inputs.snmp]]\n  community = "{s}"',
        lambda s: f"radius-server host 10.0.0.5 auth-port 1812 key {s}",
        lambda s: f"radius server ISE\n address ipv4 10.0.0.5 auth-port 1812\n key 0 {s}",
        lambda s: f"client ap1 {{\n    ipaddr = 10.0.0.7\n    secret = {s}\n}}",
        lambda s: f"username ops privilege 15 secret 0 {s}",
        lambda s: f'set protocols bgp group t neighbor 10.0.0.9 authentication-key "{s}"',
        lambda s: f"sqlplus system/{s}@ORCLPDB1",
        lambda s: f"jdbc:oracle:thin:hr/{s}@db.example.net:1521/PDB1",
        lambda s: f"mkstore -wrl /u01/wallet -createCredential PDB1 hr '{s}'",
        lambda s: f"cmdkey /generic:TERMSRV/WIN-1 /user:CORP\\ana /pass:{s}",
        lambda s: f"echo '{s}' | kinit svc@EXAMPLE.ORG",
        lambda s: f"$ cat /etc/ldap.secret\n{s}",
        lambda s: f"ana: what's the pw for the test VM?\nbo: sec\nbo: {s}\nana: thx!",
        lambda s: f"> what did you set the root pw to on web1?\n{s} - same as the old box",
        lambda s: f"as promised, the password in a separate mail:\n\n{s}\n\nBest,\nbo",
        lambda s: f"DSM admin on nas01: admin / {s}",
        lambda s: f"if the VPN asks, use ana / {s}",
    ],
)
def test_structured_exports_device_configs_and_answers(make) -> None:  # type: ignore[no-untyped-def]
    secret = _r(string.ascii_letters, 8) + _r(string.digits, 3) + "!" + _r(_AN, 4)
    text = make(secret)
    assert _found(text, secret), text


def test_licences_and_keytabs_by_their_documented_shapes() -> None:
    key = _product_key()
    block_lines = "\n".join(" ".join(_r("0123456789ABCDEF", 8) for _ in range(4)) for _ in range(6))
    block = f"----- BEGIN LICENSE -----\nAna Lima\nSingle User License\n{block_lines}\n------ END LICENSE ------"
    keytab = _keytab_b64()
    licence = _r(string.ascii_uppercase, 8) + _r(string.digits, 6)
    for text, secret in [
        (f"slmgr /ipk {key}", key),
        (f"Windows key for the reception PC: {key}", key),
        (block, block),
        (f"KEYTAB_B64={keytab}", keytab),
        (f'{{"intelephense.licenceKey": "{licence}"}}', licence),
    ]:
        assert _found(text, secret), text


def test_hashes_samples_and_settings_named_after_secrets_pass() -> None:
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = base64.urlsafe_b64encode(b'{"sub":"1234567890","name":"John Doe","iat":1516239022}').decode().rstrip("=")
    sample = f"{header}.{body}.{_r(_B64U, 43)}"
    texts = [
        f"jwt.io's sample token for the decoder UI:\n{sample}",
        f"enable secret 9 $9${_r(_AN, 14)}${_r(_AN + './', 43)}",
        f"c.ServerApp.password = 'argon2:$argon2id$v=19$m=10240,t=10,p=8${_r(_AN, 22)}${_r(_AN, 43)}'",
        "features:\n  new_password_reset_flow: true\n  token_rotation_v2: rollout-10%",
        f"- faster secret lookup ({_r(_HEXD, 40)})",
        'Parameters: {"user"=>{"email"=>"ana@example.org", "password"=>"[FILTERED]"}}',
        'Body: {"username": string, "password": string}',
        "name,url,username,password\n",
        "License key field in the installer is optional for the community edition.",
    ]
    for text in texts:
        assert SecretScanner().scan(text) == [], text


def _digits(n: int) -> str:
    return "".join(random.choice("13579") + random.choice("02468") for _ in range(n // 2)) + "7" * (n % 2)


def test_pins_need_a_word_for_a_pin_or_a_lock() -> None:
    pin = _digits(8)
    for text in [
        f"SIM card: PUK {pin}, keep it with the phone",
        f"Server room door code changed today: {pin}#",
        f"{pin} is the new code for the bike room",
        f"test phone unlock passcode (lab shelf): {pin}",
    ]:
        assert _found(text, pin), text
    for text in [f"Android build code {pin}", f"exit code {pin} from the runner", "pin the base image"]:
        assert SecretScanner().scan(text) == [], text


def test_sql_rows_and_psql_output_under_secret_columns() -> None:
    pw = _pw()
    key = "tk_" + _r(_AN, 32)
    insert = f"INSERT INTO `users` (`id`, `email`, `password`) VALUES\n(7, 'ana@example.org', '{pw}');"
    psql = f" id | name  | api_key\n----+-------+---------\n 3 | shop  | {key}\n(1 row)"
    assert _found(insert, pw), insert
    assert _found(psql, key), psql
    django = f"INSERT INTO auth_user (id, password) VALUES\n(5, 'pbkdf2_sha256$600000${_r(_AN, 22)}${_r(_AN, 43)}=');"
    htpasswd = f"/etc/nginx/.htpasswd:\npreview:$2y$12${_r(_AN + './', 53)}"
    for text in [django, htpasswd]:
        assert SecretScanner().scan(text) == [], text


def test_spaced_passphrases_and_answers_in_chat_exports() -> None:
    words = ["maple", "quartz", "harbor", "lantern", "violet", "cinder"]
    phrase = " ".join(random.sample(words, 5))
    pw = _pw()
    for text, secret in [
        (f'export RESTIC_PASSWORD="{phrase}"', phrase),
        (f"GPG signing key passphrase: {phrase}", phrase),
        (f"the encrypted zip. Password, in a separate mail:\n{phrase}", phrase),
        (f"Ana  09:10\nanyone remember the login for the old CI? user is admin\nBo  09:12\n{pw}", pw),
        (f"[10:01] <ana> anyone know the controller login?\n[10:02] <bo> ops-admin\n[10:02] <bo> {pw}", pw),
        (f"Q (Ana): what goes in KEYSTORE_PASS?\nA (Bo): `{pw}`", pw),
        (f"Ana: ¿cuál es la contraseña del router?\nBo: {pw}", pw),
    ]:
        assert _found(text, secret), text
    for text in [
        'Ana: what\'s the password for staging?\nBo: check 1Password, "Staging admin" in the vault',
        "pass@1 = 0.44, pass@10 = 0.74 on the held-out split",
        "class Settings(BaseSettings):\n    db_password: SecretStr\n",
        "password hashing: argon2id, m=64MiB, t=3, p=4",
        "Passwort-Richtlinie: mindestens 12 Zeichen, keine Wiederverwendung",
        f"token-service image: acme/token-service@sha256:{_r(_HEXD, 64)}",
        "  anthropic:\n    api_key: os.environ/ANTHROPIC_API_KEY",
    ]:
        assert SecretScanner().scan(text) == [], text


# -- round 11: structure, commands, links, masks, accounts, languages (sets h, i, j) ---------


def _strong_pw() -> str:
    return _r(string.ascii_uppercase, 1) + _r(string.ascii_lowercase, 5) + "#" + _r(string.digits, 3)


@pytest.mark.parametrize(
    "make",
    [
        lambda: "FlyV1 fm2_" + _r(_AN + "+/", 120) + ",fm2_" + _r(_AN + "+/", 60),
        lambda: "fo1_" + _r(_B64U, 43),
        lambda: "ya29.a0" + _r(_B64U, 120),
        lambda: "IQoJb3JpZ2luX2Vj" + _r(_AN + "+/", 200),
        lambda: "K10" + _r(_HEXD, 64) + "::server:" + _r(_HEXD, 32),
        lambda: "shippo_live_" + _r(_HEXD, 40),
        lambda: "sk-" + _r(_HEXD, 32),
        lambda: "dt0c01." + _r(_AN, 24) + "." + _r(_AN, 64),
        lambda: "pscale_tkn_" + _r(_AN, 43),
    ],
)
def test_more_documented_token_formats(make) -> None:  # type: ignore[no-untyped-def]
    token = make()
    assert _found(f"pasted from the CLI: {token} (rotate after the demo)", token), token


def test_values_named_by_the_structure_around_them() -> None:
    key, pw, phrase = _r(_AN, 32), _strong_pw(), "-".join(_RNG.sample(_WORDS, 4)) + "7"
    b64 = _r(_AN + "+/", 86) + "=="
    for text, secret in [
        (f"<key>ApiKey</key>\n<string>{key}</string>\n<key>CFBundleVersion</key>\n<string>4.2</string>", key),
        (f'resource "x" "y" {{\n  secret_name     = "SEARCH_API_KEY"\n  plaintext_value = "{key}"\n}}', key),
        (f'[\n  {{\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "{b64}"\n  }}\n]', b64),
        (
            f"| Variable | Value | Notes |\n|---|---|---|\n| REGION | eu-west-1 | |\n| GPG_PASSPHRASE | `{phrase}` | |",
            phrase,
        ),
        (f'spark.conf.set(\n    "fs.azure.account.key.lake.dfs.core.windows.net",\n    "{b64}",\n)', b64),
        (f'os.Setenv("ANSIBLE_VAULT_PASSWORD", "{phrase}")', phrase),
        (f'Auth: []ssh.AuthMethod{{ssh.Password("{pw}")}},', pw),
        (f"conn = Connection(server, 'cn=sync,ou=svc,dc=corp,dc=local', '{pw}', auto_bind=True)", pw),
        (f"$ sqlite3 app.db 'select key, value from config'\nsteam_app_id|6678\nsteam_web_api_key|{key}", key),
        (f"COPY public.api_keys (id, label, token) FROM stdin;\n1\tzapier\t{key}\n\\.", key),
        (f'{{"result": "[auth]\\njwt_secret: \\"{key}\\"\\ntimeout_s: 30\\n"}}', key),
        (f"from the Chrome export:\nwww.example.com,https://www.example.com/login,ana@example.org,{pw},", pw),
        (f'"svc_audit" "{pw}"', pw),
        (f"Password:\n{pw[:4]}={pw[4:]}\n\n(for the test VM)", f"{pw[:4]}={pw[4:]}"),
    ]:
        assert _found(text, secret), text


def test_what_commands_print_and_echo() -> None:
    key, pw, hexkey = _r(_AN, 32), _strong_pw(), _r(_HEXD, 32)
    phrase = " ".join(_RNG.sample(_WORDS, 5))
    for text, secret in [
        (f"$ kubectl -n ci get secret deploy -o jsonpath='{{.data.token}}' | base64 -d\n{key}", key),
        (f"$ openssl rand -hex 16\n{hexkey}\nused it for the webhook signing secret", hexkey),
        (f'$ security find-generic-password -wa "Office-WiFi"\n{pw}', pw),
        (f'$ echo "deploying with $DEPLOY_PASSWORD"\ndeploying with {pw}\n(the variable could not be masked)', pw),
        (f"  1201  sudo -i\n  1202  {pw}\n  1203  systemctl restart nginx", pw),
        (f"ssh-keygen -t ed25519 -N '{phrase}' -f ./deploy_key", phrase),
        (f"$ cat ~/.ansible/vault_pass.txt\n{phrase}", phrase),
        (f"hdbuserstore SET BACKUP db1.corp:30015 SYSTEM {pw}", pw),
        (f"mosquitto_passwd -b /etc/mosquitto/passwd sensor {pw}", pw),
    ]:
        assert _found(text, secret), text
    for text in [
        f"$ kubectl get secret web-tls -o jsonpath='{{.metadata.uid}}'\n{_uuid()}",
        "$ openssl rand -hex 32\n(output redacted)",
        'echo "deploying with $DEPLOY_PASSWORD"\ndeploying with ********',
        "  1201  sudo -i\n  1202  cd /var/log",
    ]:
        assert SecretScanner().scan(text) == [], text


def test_links_that_carry_a_token() -> None:
    token, hexed = _r(_B64U, 43), _r(_HEXD, 64)
    for text, secret in [
        (f"Accept here: https://app.example.com/join/{token}", token),
        (f"Reset your password: https://auth.example.com/magic-link/verify/{hexed}", hexed),
        (f"https://example.com/invite/accept?code={token}&email=ana%40example.com", token),
        (
            f"subscribe: https://calendar.google.com/calendar/ical/ana%40gmail.com/private-{hexed[:32]}/basic.ics",
            hexed[:32],
        ),
    ]:
        assert _found(text, secret), text
    for text in [
        f"https://accounts.google.com/o/oauth2/v2/auth?client_id=1-x.apps.googleusercontent.com&state={hexed[:20]}",
        "https://docs.example.com/join/the-community",
        f"https://github.com/acme/repo/commit/{hexed[:40]}",
        f"https://kv-prod.vault.azure.net/secrets/db-password/{hexed[:32]}",
    ]:
        assert SecretScanner().scan(text) == [], text


def test_half_masked_values_keep_their_shown_part_secret() -> None:
    shown = _r(_AN, 30)
    words = " ".join(_RNG.sample(_WORDS, 3)) + " 42"
    for text, secret in [
        (f"token (first 10 chars hidden): **********{shown}", shown),
        (f"AWS_SECRET_ACCESS_KEY=********{shown}", shown),
        (f"backup passphrase (first word blanked): ****** {words}", words),
    ]:
        assert _found(text, secret), text
    for text in ["AWS_ACCESS_KEY_ID=AKIA************", "key: sk_live_****Xw0s", "x-api-key: sk-ant-…Ri20"]:
        assert SecretScanner().scan(text) == [], text


def test_passwords_in_more_languages_and_conventions() -> None:
    pw = _strong_pw()
    for text in [
        f"Suport: parola temporară este {pw}",
        f"Υποστήριξη: ο κωδικός πρόσβασης είναι {pw}",
        f"תמיכה: הסיסמה הזמנית שלך היא {pw}",
        f"ฝ่ายสนับสนุน: รหัสผ่านชั่วคราวคือ {pw}",
        f"الدعم: كلمة المرور المؤقتة هي {pw}",
        f"सहायता: आपका अस्थायी पासवर्ड {pw} है",
        f"Támogatás: az ideiglenes jelszava {pw}",
        f"Client : j'ai perdu mon mot de passe\nSupport : voici le nouveau : {pw}",
        f"mot_de_passe={pw}",
        f'"motDePasse": "{pw}"',
        f"kata_sandi: {pw}",
    ]:
        assert _found(text, pw), text
    for text in [
        '{"auth.password.mismatch": "Les mots de passe ne correspondent pas"}',
        '"auth.password.reset.title": "Passwort zurücksetzen"',
        "Kunde: Ich habe mein Passwort vergessen.\nSupport: Bitte klicken Sie auf 'Passwort vergessen'.",
    ]:
        assert SecretScanner().scan(text) == [], text


def test_accounts_devices_and_shared_secrets() -> None:
    pw, phrase = _strong_pw(), "-".join(_RNG.sample(_WORDS, 3)) + "-57"
    letters = "".join(_RNG.sample("BCDFGHJKLMNPQRSTVWXZ", 8))
    for text, secret in [
        (f"UniFi OS console local admin: sync-bot {pw}", pw),
        (f"the wifi is {phrase} btw (network: Studio-5G)", phrase),
        (f"{pw} — root on nas01, reset after the disk swap", pw),
        (f"VNC on the lab mac mini (10.1.2.3) is {pw}, screen sharing only", pw),
        (f"{pw}\n(svc_veeam, domain CORP — for the backup job only)", pw),
        (f"iLO on hv03: Administrator / {letters} (from the pull-out tag)", letters),
        (f"L2TP for the office: server 10.0.0.1, shared secret {phrase}, then your AD login", phrase),
        (f"admin={pw},admin\nuser=user,user", pw),
        (f"auths:\n  public_v2:\n    community: {pw.replace('#', '')}\n    version: 2", pw.replace("#", "")),
        (f"VeraCrypt container for the HR archive — {' '.join(_RNG.sample(_WORDS, 4))} — only two of us know", None),
    ]:
        if secret is None:
            assert SecretScanner().scan(text), text
        else:
            assert _found(text, secret), text
    for text in [
        "admin: JaneDoe2024 (she owns the billing account)",
        "wifi: Office-5G (WPA3), guest: Office-Guest",
        "admin user is ClusterAdmin01 in the tenant",
        "root cause: OOMKilled after the Java17 upgrade",
        "login: success for user bob at 2024-05-03T12:00:00Z",
        "ssh: Permission denied (publickey,password) on db-04.qa.corp -> wrong user",
        "Guest Wi-Fi is open, no password; staff network uses 802.1X with your AD login.",
        'psql: FATAL: password authentication failed for user "app" -> server expects scram-sha-256',
        "admin:$apr1$LDkd3giV$OKN1qdmhnctTZleres4Ta/",
    ]:
        assert SecretScanner().scan(text) == [], text


@pytest.mark.parametrize(
    "value",
    [
        "#{DbPassword}",
        "@db.password@",
        "((db_password))",
        "__DB_PASSWORD__",
        "{password}",
        "%(password)s",
        "secretref:db-password",
        "keyvault:db-password",
        "projects/123/secrets/db-password/versions/latest",
        "{{resolve:secretsmanager:prod/db:SecretString:password}}",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "kafka-07.dev.corp",
        "^24.13.4",
    ],
)
def test_templates_references_hashes_and_examples_pass(value: str) -> None:
    for text in [f"password={value}", f"password: {value}", f'"password": "{value}"']:
        assert SecretScanner().scan(text) == [], text
    assert SecretScanner().scan("password: hunter2  # example from the docs") == []


def test_a_token_under_a_heading_that_names_it_and_one_secret_written_twice() -> None:
    token = _r(string.ascii_uppercase, 8) + _r(string.digits, 8) + _r(string.ascii_lowercase, 16)
    commit = f"commit {_r(_HEXD, 40)}\n\n    Remove hardcoded mail API key\n\n    Oops, {token} was in settings.py; it's read from env now."
    assert _found(commit, token), commit
    for text in [
        f"## Stripe secret key rotation\n\nVerified with payment intent pi_{_r(_AN, 24)} and a test charge.",
        f"Token refresh failure\n\nUser reported error code {token} after login.",
    ]:
        assert SecretScanner().scan(text) == [], text
    pw = _strong_pw()
    text = f"login as: {pw}\n{pw}@nas1.example.com's password:\nAccess denied"
    hits = SecretScanner().scan(text)
    assert pw not in redact(text, hits), text


# -- round 12: references, identifiers, templates, commands, languages (set k) --------------


def test_a_twilio_account_sid_is_an_identifier_its_auth_token_the_secret() -> None:
    sid, service = "A" + "C" + _r(_HEXD, 32), "M" + "G" + _r(_HEXD, 32)
    log = f"2024-06-04 23:46 sms sent account={sid} messaging_service={service} to=+4917******33 status=queued"
    assert SecretScanner().scan(log) == []
    token = _r(_HEXD, 32)
    assert _found(f"Twilio: account {sid}, auth token {token}", token)
    assert _found("SMS sender key " + "S" + "K" + _r(_HEXD, 32), "S" + "K")


def test_where_a_secret_is_read_from_is_no_secret() -> None:
    for text in [
        "[database]\nhost = pg-01.corp\nport = 5432\nuser = app\n; password is read from billing_DB_PASSWORD\npassword =",
        "; token is loaded from CI_DEPLOY_TOKEN",
        "password: taken from vault via the agent",
        "redis:\n  auth:\n    enabled: true\n    existingSecret: orders-redis\n    existingSecretPasswordKey: redis-password",
        "withCredentials([usernamePassword(credentialsId: 'orders-nexus', usernameVariable: 'NEXUS_USER', "
        "passwordVariable: 'NEXUS_PASS')]) {\n    sh './gradlew publish'\n}",
    ]:
        assert SecretScanner().scan(text) == [], text
    pw = _strong_pw()
    assert _found(f"password from last week: {pw}", pw)
    assert _found(f"; password is {pw}", pw)
    phrase = "-".join(_RNG.sample(_WORDS, 4)) + "-9"
    assert _found(f"Passphrase for the key file: {phrase}", phrase)  # (a word alone still labels)


def test_template_expressions_in_a_url_are_no_password() -> None:
    for text in [
        "url = f\"postgresql+psycopg://{os.environ['DB_USER']}:{os.environ['DB_PASSWORD']}@db-01.corp/app\"",
        "conn = f\"redis://:{os.getenv('REDIS_PASSWORD')}@cache:6379/0\"",
        'url = "postgresql://{}:{}@db/app".format(user, pw)',
    ]:
        assert SecretScanner().scan(text) == [], text
    pw = _strong_pw()
    assert _found(f'url = f"postgresql://{{user}}:{pw}@db-01.corp/app"', pw)


def test_registry_keys_section_headers_and_armored_public_keys_pass() -> None:
    for text in [
        f'[HKEY_CLASSES_ROOT\\CLSID\\{{{_uuid()}}}]\n@="Auth Shell Extension"\n"ThreadingModel"="Apartment"',
        "Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\nordhaven\\Auth\\Settings]\n"
        f'"InstanceId"="{{{_uuid()}}}"',
        "my public key for encrypted mails:\n-----BEGIN PGP "
        + "PUBLIC KEY BLOCK-----\n\n"
        + "\n".join(_r(_AN + "+/", 64) for _ in range(4))
        + "\n=imoD\n-----END PGP PUBLIC KEY BLOCK-----",
        "[web]\nauth-dev.corp ansible_host=10.0.0.1 ansible_user=svc_auth "
        "ansible_ssh_private_key_file=~/.ssh/id_ed25519\n\n[web:vars]\nansible_become=true",
    ]:
        assert SecretScanner().scan(text) == [], text
    pw = _strong_pw()
    assert _found(f"[db]\nhost1 ansible_user=deploy ansible_password={pw}", pw)
    assert _found(f"bind user svc_jira, password Raven={pw}, base DN ou=Staff", pw)


def test_a_password_with_an_at_sign_is_no_mail_address() -> None:
    for pw in ["Zorro@2026.saff", "walrus@1869.Zephyr", "nNcZH8cIhH@CbU1a2Fje.OtU"]:
        assert _found(f"RabbitMQ password is {pw}\nSanne: done, thx", pw), pw
    for text in [
        "password reset mails go to ops@mail.acme.xyz",
        "password: root@10.0.0.7",
        "password: hiro@lumen-labs.fr",
    ]:
        assert SecretScanner().scan(text) == [], text


def test_secrets_in_commands_configs_and_headers() -> None:
    phrase = "-".join(_RNG.sample(_WORDS, 5)) + "-42"
    assert _found(f"echo '{phrase}' > ~/.ansible/vault_pass.txt && chmod 600 ~/.ansible/vault_pass.txt", phrase)
    pw = _strong_pw()
    assert _found(f"printf '%s' '{pw}' > ~/.config/restic/password.txt", pw)
    gossip = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(32))).decode()
    assert _found(f'datacenter = "dc1"\nencrypt = "{gossip}"\nserver = true', gossip)
    assert _found(f'{{"encrypt": "{gossip}"}}', gossip)
    token = _r(_AN, 32)
    assert _found(f'curl -H "Authorization: Token token={token}" https://api.example.net/incidents', token)
    login = f"Hi Olaf, I've reset the account. You can log in as ci-bot with {pw} and set your own password afterwards."
    assert _found(login, pw)
    for text in [
        "echo 'deploy finished' > /var/log/token_rotation.log",
        'echo "$VAULT_PASS" > ~/.vault_pass.txt',
        "encrypt = true\nverify_incoming = true",
        "You can log in as admin with your SSO account.",
        "Authorization: Token token=${PAGERDUTY_TOKEN}",
    ]:
        assert SecretScanner().scan(text) == [], text


def test_a_passphrase_named_in_other_languages_and_after_cjk_text() -> None:
    phrase = ".".join(w.capitalize() for w in _RNG.sample(_WORDS, 4))
    for text in [
        f"Bonjour, la phrase de passe de borg backup utilisé par billing est {phrase}. Merci de vérifier.",
        f"Ik heb de wachtzin van restic vernieuwd, nieuwe waarde is {phrase}. Graag niet doorsturen.",
        f"Zgłoszenie TCK-802: klient podał fraza hasła do restic: {phrase}",
        f"お客様からresticのパスフレーズが送られてきました。{phrase}",
    ]:
        assert _found(text, phrase), text
    key = _r(_AN, 40)
    assert _found(f"問い合わせHELP-4265: お客様からAWS secret access keyが送られてきました。{key}", key)
    assert SecretScanner().scan(f"リクエストID：{_r(_HEXD, 32)}") == []
    assert SecretScanner().scan("De wachtzin wordt uit Vault gelezen (secret/data/backup).") == []


def test_vendor_formats_with_fixed_runs_and_signatures() -> None:
    # X app bearer tokens: a run of "A"s, the app id, "%3D", the secret
    bearer = "A" * 21 + _r(_AN, 8) + "%2B" + _r(_AN, 10) + "%3D" + _r(_AN, 50)
    assert _found(f'client = tweepy.Client(bearer_token="{bearer}")', bearer)
    # Azure DevOps PATs: 52 random characters, the signature, fixed fields, the org marker
    pat = _r(_AN, 52) + "JQQ" + "J99" + "ABC" + "ACAAAAAAAAAA" + "AZ" + "DO" + _r(_AN, 4)
    assert _found(f"export AZURE_DEVOPS_EXT_PAT={pat}", pat)
    smith = "lsv2" + "_sk_" + _r(_HEXD, 32) + "_" + _r(_HEXD, 10)
    assert _found(f"here is the LangSmith key you asked for: {smith}", smith)
    dropbox = "sl" + ".u." + _r(_B64U, 140)
    assert _found(f"const dbx = new Dropbox({{ accessToken: '{dropbox}' }});", dropbox)
    ref = base64.b64encode(f"reftkn:01:1764756250:{_r(_AN, 31)}".encode()).decode().rstrip("=")
    assert _found(f"remember: deploy key is {ref} (the sandbox one)", ref)
    # a placeholder run is not a token
    assert SecretScanner().scan("TWITTER_BEARER_TOKEN=" + "A" * 21 + "%3D" + "x" * 40) == []


def test_wordpress_salts_and_key_material_built_from_literals() -> None:
    salt = "".join(_RNG.choice(_AN + "!@#%^&*()-_[]{}<>~+=,.;:/?|") for _ in range(64))
    assert _found(f"define('AUTH_SALT', '{salt}');", salt)
    assert _found(f"WORDPRESS_NONCE_KEY='{salt}'", salt)
    assert SecretScanner().scan("define( 'NONCE_SALT', 'put your unique phrase here' );") == []
    b64 = base64.urlsafe_b64encode(_RNG.randbytes(32)).decode()
    assert _found(f"const key = Buffer.from('{b64}', 'base64');", b64)
    hexkey = _r(_HEXD, 32)
    assert _found(f'var key = Encoding.UTF8.GetBytes("{hexkey}");', hexkey)
    wallet = "0x" + _r(_HEXD, 64)
    assert _found(f'sepolia: {{ url: process.env.RPC_URL, accounts: ["{wallet}"] }},', wallet)
    assert _found(f'account = Account.from_key("{wallet}")', wallet)


def test_values_given_by_context_a_store_a_rotation_a_file_or_a_product() -> None:
    token = _r(_AN, 40)
    assert _found(f"echo -n '{token}' | gcloud secrets create api-token --data-file=-", token)
    hexkey = _r(_HEXD, 48)
    assert _found(f"fix: use the new signing secret\n\nold one expired; new value is {hexkey}\n\nRefs: #12", hexkey)
    assert _found(f"config/credentials/production.key: {hexkey[:32]}", hexkey[:32])
    assert _found(f"staging Datadog key: {hexkey[:32]} (rotate next week)", hexkey[:32])
    assert _found(f"remember: deploy key is {hexkey[:32]} (the dev one)", hexkey[:32])
    assert _found(f"TODO rotate `{token}` (Mapbox token, prod) after the demo", token)
    uuid = "-".join(_r(_HEXD, n) for n in (8, 4, 4, 4, 12))
    assert _found(f"$ heroku auth:token\n \u203a   Warning: token will expire soon\n {uuid}", uuid)
    # a release note about a new value with no secret named, a listing of digests
    assert SecretScanner().scan(f"chore: bump the cache\n\nnew value is {hexkey}") == []
    listing = f"$ fly secrets list\nNAME          DIGEST            CREATED AT\nDB_PASSWORD   {_r(_HEXD, 16)}  5d ago"
    assert SecretScanner().scan(listing) == []


def test_passphrases_of_capitalised_words_and_more_languages() -> None:
    words = ["Drift", "Blanket", "Raven", "Mango", "Helmet", "Orchid"]
    phrase = " ".join(words)
    assert _found(f"KeePass master password for the team vault: {phrase}", phrase)
    assert _found(f"Yedekleme anahtarının parolası: {phrase}", phrase)
    assert _found(f"备份密钥口令：{phrase}", phrase)
    assert _found(
        f"Lösenfras för backup-nyckeln: {'-'.join(w.lower() for w in words)}", "-".join(w.lower() for w in words)
    )
    dashed = "trumpet-window-puzzle-compass-canyon"
    assert _found(f"GPG passphrase for release signing: {dashed}", dashed)
    assert _found(f"Heslová fráze k záloze: {dashed}", dashed)
    assert SecretScanner().scan("Password: Ask The Team Lead") == []


def test_public_by_design_values_placeholders_and_code_pass() -> None:
    def jwt(payload: str) -> str:
        enc = base64.urlsafe_b64encode
        head = enc(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
        return f"{head}.{enc(payload.encode()).decode().rstrip('=')}.{_r(_B64U, 43)}"

    anon = jwt('{"iss":"supabase","ref":"abcdefghijklmnopqrst","role":"anon","iat":1700000000}')
    service = jwt('{"iss":"supabase","ref":"abcdefghijklmnopqrst","role":"service_role","iat":1700000000}')
    assert SecretScanner().scan(f"NEXT_PUBLIC_SUPABASE_ANON_KEY={anon}") == []
    assert _found(f"SUPABASE_SERVICE_ROLE_KEY={service}", service)
    dsn = f"https://{_r(_HEXD, 32)}@o123456.ingest.us.sentry.io/4567890"
    assert SecretScanner().scan(f'Sentry.init({{ dsn: "{dsn}" }});') == []
    key = _r(_HEXD, 32)
    search = f"// search-only key, public by design\nconst searchClient = algoliasearch('APP1D2X3Y4', '{key}');"
    assert SecretScanner().scan(search) == []
    assert _found(f"// not safe to expose\nconst client = algoliasearch('APP1D2X3Y4', '{key}');", key)
    for text in [
        "Set `password: <choose-a-strong-password>` in values.yaml before `helm install web`.",
        '$ echo "deploying with $DB_PASSWORD"\ndeploying with [MASKED]\nJob succeeded',
        "TWILIO_AUTH_TOKEN=  # 1Password: Twilio prod",
        'resource "random_password" "db" {\n  length = 32\n}\n\nresource "aws_db_instance" "main" {\n'
        "  password = random_password.db.result\n}",
        "Join by phone: +46 771 346 2870, PIN: 792 258 910#",
        '{"name": "cookie_consent", "value": "analytics:0,marketing:0"}',
        'var key = Environment.GetEnvironmentVariable("SENDGRID_API_KEY") ?? throw new InvalidOperationException();',
        "gcloud auth activate-service-account --key-file=$HOME/.config/gcloud/ci-sa.json",
        "python -c 'import secrets; print(secrets.token_urlsafe(32))'  # generate one, don't paste it here",
    ]:
        assert SecretScanner().scan(text) == [], text


def test_vendor_formats_of_payment_messaging_and_crm_tokens() -> None:
    mp = "APP" + "_USR-" + _r(string.digits, 16) + "-" + _r(string.digits, 6) + "-" + _r(_HEXD, 32) + "-" + "919910995"
    assert _found(f'sdk = mercadopago.SDK("{mp}")', mp)
    public = "APP" + "_USR-" + "36e343c9-780e-4512-877e-61ce4c9aa84c"
    assert SecretScanner().scan(f"MP_PUBLIC_KEY={public}") == []
    seed = "S" + "U" + _r(_B32, 56)
    assert _found(f'kp, _ := nkeys.FromSeed([]byte("{seed}"))', seed)
    sf = "00" + "D" + _r(_AN, 12) + "!" + _r(_AN + "._", 96)
    assert _found(f"sf = Salesforce(instance_url=url, session_id='{sf}')", sf)
    xnd = "xnd" + "_production_" + _r(_AN + "+/", 70) + "=="
    assert _found(f"the Xendit one for prod: {xnd}", xnd)


def test_firebase_client_config_key_is_public_but_a_server_key_is_not() -> None:
    key = "AI" + "za" + "Sy" + _r(_B64U, 33)
    app_id = "1:" + _r(string.digits, 12) + ":web:" + _r(_HEXD, 22)
    config = f'const firebaseConfig = {{\n  apiKey: "{key}",\n  projectId: "shop-prod",\n  appId: "{app_id}"\n}};'
    assert SecretScanner().scan(config) == []
    assert _found(f"YOUTUBE_API_KEY={key}", key)


def test_named_values_in_service_configs() -> None:
    cookie = "".join(_RNG.choice("BCDFGHJKLMNPQRSTVWXZ") for _ in range(20))
    assert _found(f'  environment:\n    RABBITMQ_ERLANG_COOKIE: "{cookie}"', cookie)
    assert SecretScanner().scan("RABBITMQ_ERLANG_COOKIE: DEVELOPMENT") == []
    salt = _r(_AN, 32)
    assert _found(f"payu:\n  key: {_r(_AN, 7)}\n  salt: {salt}\n  env: prod", salt)
    assert SecretScanner().scan("16-byte random salt (example salt " + _r(_HEXD, 32) + ")") == []
    kaggle = _r(_HEXD, 32)
    assert _found(f"export KAGGLE_USERNAME=ana586\nexport KAGGLE_KEY={kaggle}", kaggle)
    assert _found(f'{{"username":"yossi95","key":"{kaggle}"}}', kaggle)
    wb = _r(_HEXD, 40)
    assert _found(f'wandb.login(key="{wb}")', wb)
    assert SecretScanner().scan(f"CACHE_KEY={kaggle}") == []
    primary = _r(_AN + "+/", 43) + "="
    assert _found(f'"symmetricKey": {{\n  "primaryKey": "{primary}",\n  "secondaryKey": null\n}}', primary)
    assert SecretScanner().scan("ALTER TABLE t ADD primary key (id);") == []


def test_neptune_style_token_holds_a_named_key_in_base64_json() -> None:
    uuid = f"{_r(_HEXD, 8)}-{_r(_HEXD, 4)}-4{_r(_HEXD, 3)}-a{_r(_HEXD, 3)}-{_r(_HEXD, 12)}"
    body = '{"api_address":"https://app.example.ai","api_key":"' + uuid + '"}'
    token = base64.b64encode(body.encode()).decode()
    assert _found(f"NEPTUNE_API_TOKEN={token}", token)
    prefs = base64.b64encode(b'{"theme":"dark","lang":"en-US","page":"settings"}').decode()
    assert SecretScanner().scan(f"prefs_token={prefs}") == []


def test_login_pairs_in_commands_and_client_calls() -> None:
    fresh = _r(_AN, 20)
    assert _found(f"curl -v -u {fresh}:X -X GET 'https://acme.example.com/api/v2/tickets'", fresh)
    zd = _r(_AN, 40)
    assert _found(f"curl https://acme.example.com/api/v2/tickets.json -u ana.k@example.com/token:{zd}", zd)
    pw = "Cobalt" + _r(string.digits, 2) + "~" + _r(_AN, 6)
    assert _found(f"conn = trino.dbapi.connect(host='h', auth=BasicAuthentication('svc', '{pw}'))", pw)
    assert _found(f'client.username_pw_set("sensor-f49f8b", "{pw}")', pw)
    midtrans = base64.b64encode(("Mid-server-" + _r(_AN, 24) + ":").encode()).decode()
    assert _found(f"curl -H 'Authorization: Basic {midtrans}' https://api.example.com/snap", midtrans)
    hexkey = _r(_HEXD, 64)
    klist = f"$ klist -k -K /etc/krb5.keytab\n   2 09/10/2025 svc@EXAMPLE.LOCAL (aes256-cts-hmac-sha1-96)  (0x{hexkey})"
    assert _found(klist, hexkey)


def test_public_client_keys_hashes_templates_and_settings_pass() -> None:
    for text in [
        "ADYEN_CLIENT_KEY=live_" + _r(string.ascii_uppercase + string.digits, 32),
        '<script src="snap.js" data-client-key="Mid-client-' + _r(_AN, 16) + '"></script>',
        "CREATE USER etl IDENTIFIED WITH sha256_hash BY '" + _r(_HEXD, 64) + "';",
        '{"login": "dbt", "password": "{{ PG_PASSWORD }}", "host": "etl-1.example.mx"}',
        'url: "amqps://{{ rabbit_user }}:{{ rabbit_password | urlencode }}@{{ rabbit_host }}:5671/prod"',
        "amqp://user:pass@host:port/vhost — see the URI spec for the grammar.",
        'Artifacts=(ClientId="x",ClientSecret="",ProductId="' + _r(_HEXD, 32) + '")',
        "password-authenticator.config-files=etc/ldap.properties",
        "Error: invalid credentials — the SharedAccessSignature has expired (se=1705864974)",
        "connection strings hold either SharedAccessKey or x509=true.",
        "VONAGE_API_KEY=" + _r(_HEXD, 8),
        "registration.okta.signing.credentials[0].private-key-location=file:/etc/saml/sp.key",
        'echo "storePassword=$KEYSTORE_PASSWORD" >> keystore.properties',
        "auth:\n  username: admin\n  existingPasswordSecret: rabbitmq-admin",
        "[mqtt] CONNACK rc=5 for client esp32-327ed3 — check the device password in the DB",
    ]:
        assert SecretScanner().scan(text) == [], text


def test_password_verifiers_are_hashes_not_passwords() -> None:
    b64 = string.ascii_letters + string.digits + "+/"
    scram = "SCRAM-SHA-256$4096:" + _r(b64, 22) + "==$" + _r(b64, 43) + "=:" + _r(b64, 43) + "="
    for text in [
        "ALTER ROLE app WITH LOGIN PASSWORD 'md5" + _r(_HEXD, 32) + "';",
        "ALTER ROLE app WITH LOGIN PASSWORD '" + scram + "';",
        'userlist.txt:\n"app" "' + scram + '"',
        "CREATE USER 'app'@'%' IDENTIFIED WITH mysql_native_password AS '*" + _r(_HEXD, 40).upper() + "';",
        "userPassword: scrypt:32768:8:1$" + _r(_AN, 16) + "$" + _r(_HEXD, 128),
    ]:
        assert SecretScanner().scan(text) == [], text
    pw = "Tundra" + _r(string.digits, 3) + "!" + _r(_AN, 5)
    assert _found(f"ALTER ROLE app WITH LOGIN PASSWORD '{pw}';", pw)


def test_references_to_where_a_secret_is_kept_pass() -> None:
    uuid = "-".join(_r(_HEXD, n) for n in (8, 4, 4, 4, 12))
    for text in [
        '"ClientSecret": "@Microsoft.' + 'KeyVault(VaultName=kv-app;SecretName=app-secret)"',
        '"secrets": [{"name": "DB_PASSWORD", "value'
        + 'From": "arn:aws:secretsmanager:us-east-1:1:secret:db:password::"}]',
        "bws secret get " + uuid,
        "password is in Bitwarden under 'infra / inventory sandbox'",
        "stats auth admin:${HAPROXY_STATS_PASS}",
        "$secret = Get-Secret -Name app-api -Vault AzKV -AsPlainText:$false",
        "AUTH0_CLIENT_SECRET=\nSMTP_PASSWORD=\nNPM_TOKEN=''",
    ]:
        assert SecretScanner().scan(text) == [], text
    pw = "Quartz" + _r(string.digits, 3) + "#" + _r(_AN, 5)
    assert _found('"secrets": [{"name": "DB_PASSWORD", "value": "' + pw + '"}]', pw)


def test_placeholders_ids_and_public_values_beside_names_pass() -> None:
    header = base64.urlsafe_b64encode(b'{"alg":"RS256","typ":"JWT","kid":"' + _r(_AN, 20).encode() + b'"}')
    uuid = "-".join(_r(_HEXD, n) for n in (8, 4, 4, 4, 12))
    for text in [
        "OPENAI_API_KEY=" + "sk_" + "test_PLACE" + "HOLDER",
        '{"event":"api_key.created","key_id":"key_' + _r(_AN, 16) + '","key_sha256":"' + _r(_HEXD, 64) + '"}',
        "api_keys table stores sha256(key) only: key_hash=" + _r(_HEXD, 64) + " owner=ben",
        '{"msg":"token refreshed","user_id":"usr_' + _r(_AN, 12) + '","expires_in":3600}',
        '{"key": "enable-flag", "on": true, "salt": "' + _r(_HEXD, 32) + '"}',
        'Datadog key "etl-nightly-staging" (id ' + uuid + ")",
        "decoded header of the failing token: " + header.decode().rstrip("=") + " → alg RS256",
        "example: Authorization: Bearer YOUR-TOKEN` :white_check_mark: (edited)",
        "# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tFALSE\t1763734090\tajs_anonymous_id\t" + uuid,
    ]:
        assert SecretScanner().scan(text) == [], text
    salt = _r(_AN, 32)
    assert _found(f"payu:\n  key: {_r(_AN, 7)}\n  salt: {salt}", salt)


def test_sealed_secret_in_a_diff_is_ciphertext() -> None:
    body = "Ag" + _r(string.ascii_letters + string.digits + "+/", 300)
    text = "+kind: SealedSecret\n+spec:\n+  encryptedData:\n+    password: " + body + "\n+  template:"
    assert SecretScanner().scan(text) == [], text


def test_abbreviated_access_key_pairs() -> None:
    secret = _r(_AN, 30)
    assert _found(f"RAM user ops: AK LTAI5t{_r(_AN, 18)} / SK {secret}", secret)
    app = _r(_AN, 32)
    assert _found(f"ovh app for dns: AK {_r(_AN, 16)}, AS {app} (CK lives in 1Password)", app)
    assert SecretScanner().scan("AK and SK are the two halves of the pair: see the console.") == []


def test_auth_header_and_mfa_seed_names() -> None:
    pair = base64.b64encode(("api:" + _r(_AN, 20)).encode()).decode()
    assert _found(f"DEBUG loaded config: env=qa upstream_auth_header={pair} pool=5", pair)
    assert _found(f'stringData:\n  UPSTREAM_AUTH_HEADER: "{pair}"', pair)
    seed = _r("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
    assert _found(f"added `MFA_SEED={seed}` to .env.local", seed)
    assert SecretScanner().scan("the auth header is set by the proxy; see docs") == []


def test_code_and_project_files_are_not_values() -> None:
    scanner = SecretScanner()
    env = "KEYSTORE_" + "PASSWORD"
    kotlin = f'val storePassword = System.getenv("{env}") ?: error("missing")\n'
    kotlin += 'signingConfigs { create("release") { storePassword = storePassword; keyAlias = "app" } }'
    assert scanner.scan(kotlin) == []
    bundle = "(self.webpackChunk=self.webpackChunk||[]).push([[1],{2:function(e,t,n){var r=n(3),gs=n.n(r);"
    bundle += "t.Z=function(fW){return fW.apiKey?gs()(fW.apiKey).slice(0,8):null}}}]);"
    assert scanner.scan(bundle) == []
    ids = [_r("0123456789ABCDEF", 24) for _ in range(2)]
    pbx = f"\t\t{ids[0]} /* Secrets.xcconfig */ = {{isa = PBXFileReference; lastKnownFileType = text.xcconfig; "
    pbx += (
        f'path = Secrets.xcconfig; sourceTree = "<group>"; }};\n\t\t{ids[1]} /* A.swift */ = {{isa = PBXBuildFile; }};'
    )
    assert scanner.scan(pbx) == []
    i18n = '{messages:JSON.parse("{\\"' + _r(_AN, 6) + '\\": \\"Password\\", \\"' + _r(_AN, 6)
    i18n += '\\": \\"Show token\\", \\"' + _r(_AN, 6) + '\\": \\"Sign in\\"}")};'
    assert scanner.scan(i18n) == []
    # a variable of the same name that the text does not declare is still a value
    secret = "Kessler" + _r(string.digits, 4) + "!x"
    assert _found(f"storePassword = {secret}", secret)


def test_references_ids_and_fakes_are_not_secrets() -> None:
    scanner = SecretScanner()
    assert scanner.scan("Rotated the SendGrid key; new one is in 1Password. Old key revoked, deploy c8b9f0c.") == []
    arn = "arn:aws:secretsmanager:eu-west-1:835943697476:secret:" + "admin/api-key-" + _r(_AN, 6)
    assert scanner.scan('{"SECRET_ARN": "' + arn + '"}') == []
    assert scanner.scan("MasterUserPassword: '{{resolve:secretsmanager:" + "admin/db:SecretString:password}}'") == []
    sid = "SM" + _r(_HEXD, 32)
    assert scanner.scan(f"Twilio: message {sid} (identifier, not the auth token) status=delivered") == []
    cuid = "c" + _r("abcdefghijklmnopqrstuvwxyz234567", 23)
    assert scanner.scan(f"seed rows: session row {cuid} (cuid2), order 42") == []
    assert scanner.scan('fixtures (all values fake):\n{"password": "hunter2-but-' + 'fake"}') == []
    # a password manager named as a thing, not as where a secret is, leaves the value found
    pw = "Olga" + _r(string.digits, 4) + "."
    assert _found(f"the 1password export failed so pasting here: db superuser -> {pw}", pw.rstrip("."))


def test_documented_example_values_pass() -> None:
    scanner = SecretScanner()
    docs = "sk_" + "test_" + "4eC39Hq" + "LyjWDar" + "jtT1zdp7dc"
    assert scanner.scan(f'From the Stripe docs sample: stripe.api_key = "{docs}"') == []
    rfc = "AyM1SysPpbyDfgZld3umj1qz" + "KObwVMkoqQ-EstJQLr_T-1qS0gZH75aK" + "tMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
    assert scanner.scan(f'RFC 7515 A.1 example HMAC key (JWK "k"): {rfc}') == []
    own = "sk_" + "test_" + _r(_AN, 24)
    assert _found(f'stripe.api_key = "{own}"', own)


_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def test_porkbun_nostr_tunnel_and_shoutrrr_formats() -> None:
    scanner = SecretScanner()
    porkbun = "s" + "k1_" + _r(_HEXD, 64)
    assert _found(f"PORKBUN_SECRET_API_KEY={porkbun}", porkbun)
    assert scanner.scan("s" + "k1_" + "abc" + " is the prefix of a Porkbun secret key") == []
    nsec = "n" + "sec1" + _r(_BECH32, 58)
    assert _found(f"NOSTR_NSEC={nsec}", nsec)
    npub = "n" + "pub1" + _r(_BECH32, 58)
    assert scanner.scan(f"Follow the blog bot on nostr: {npub}") == []
    payload = '{"a":"' + _r(_HEXD, 32) + '","t":"' + _uuid() + '","s":"' + _r(_AN, 44) + '"}'
    tunnel = base64.b64encode(payload.encode()).decode()
    assert _found(f"sudo cloudflared service install {tunnel}", tunnel)
    hook = _r(_B64U, 68)
    assert _found("WATCHTOWER_NOTIFICATION_URL=discord" + f"://{hook}@{_r(string.digits, 18)}", hook)


def test_where_a_password_is_kept_is_not_the_password() -> None:
    scanner = SecretScanner()
    assert scanner.scan("IKEA Family password: see the family vault item 'IKEA Family - shared'") == []
    assert scanner.scan("Hulu moved to the family plan. Login is in Bitwarden under 'Streaming / Hulu (family)'.") == []
    assert scanner.scan("Default admin password for the Aterm WX3000HP is on the label on the bottom.") == []
    assert scanner.scan("La password del wifi è scritta sul foglietto nel cassetto della cucina.") == []
    assert scanner.scan("Uber password hint: 'first concert + street'") == []
    assert scanner.scan("wpa_passphrase output pasted into the Pi image -- the plaintext line was removed") == []
    # a value a later label gives still counts
    pw = "Quokka" + _r(string.digits, 4) + "!"
    assert _found(f"restic repo password (paper copy is in the safe): {pw}", pw)


def test_ids_counts_masked_seeds_and_public_keys_pass() -> None:
    scanner = SecretScanner()
    assert scanner.scan("Zoom with the landlord: meeting ID 168 7832 3905, passcode sent by SMS") == []
    assert scanner.scan("otpauth://totp/Proton:me@example.org?secret=REDACTED&issuer=Proton") == []
    assert scanner.scan("OpenRouter usage this month: $9.72, 4930053 tokens, model anthropic/claude-3.5-sonnet") == []
    assert scanner.scan("Node key of the exit node: node" + "key:" + _r(_HEXD, 64)) == []
    spki = "MIIBIjANBgkqhkiG9w0BAQEFAAOC" + "AQ8AMIIBCgKCAQEA" + _r(_AN + "+/", 200)
    assert scanner.scan('{\n  "manifest_version": 3,\n  "key": "' + spki + '"\n}') == []


def test_software_licence_keys_pass() -> None:
    scanner = SecretScanner()
    upper = string.ascii_uppercase + string.digits
    key = "-".join(_r(upper, 5) for _ in range(5))
    assert scanner.scan(f"License: Sublime Text\nSeats: 1\nKey: {key}") == []
    assert scanner.scan(f"Product key for the old laptop (Affinity Photo): {key}") == []
    assert scanner.scan(f"Affinity Photo licence key: {key} (bought last year)") == []


def test_labels_copulas_and_codes_in_chat() -> None:
    pw = "juniper.otter" + _r(string.digits, 2)
    assert _found(f"Hi Felix, das neue WLAN-Passwort lautet {pw} (HomeNet_IoT)", pw)
    assert _found(f"Salut Mamie ! Le mot de passe Xbox c'est {pw}", pw)
    router = "Koala" + _r(string.digits, 4) + "!"
    assert _found(f"OpenWrt One web UI login ~ {router}", router)
    token = _r(_AN + "+/", 64)
    assert _found(f"vaultwarden /admin page token (before I switch it to argon2): {token}", token)
    code = _r(string.digits, 4) + " " + _r("123456789", 4)
    assert _found(f"Google backup code for Mom's account: {code}", code)
    # an attribute path is still a reference
    assert SecretScanner().scan("password: settings.db_password") == []


def test_caddyfile_dns_provider_token() -> None:
    token = _r(_AN, 40)
    assert _found(f"{{\n    acme_dns cloudflare {token}\n    email me@example.org\n}}", token)
    assert SecretScanner().scan("tls {\n    dns cloudflare {env.CF_API_TOKEN}\n}") == []


def test_a_value_given_to_a_variable_named_after_it() -> None:
    # "… as NAME", in the languages a note is written in: the name is in code style
    key = _r(_AN, 40)
    assert _found(f"Fix: the 500s went away after I swapped in {key} as PARTNER_API_KEY.", key)
    assert _found(f"Corrigi o erro usando {key} como AUTH0_CLIENT_SECRET.", key)
    hexkey = _r(_HEXD, 32)
    assert _found(f"Entscheidung: Wir nutzen vorerst {hexkey} als TWILIO_AUTH_TOKEN, bis Vault steht.", hexkey)
    uuid = _uuid()
    assert _found(f"stored {uuid} as herokuApiKey", uuid)
    laravel = "base" + "64:" + base64.b64encode(bytes(_RNG.randrange(256) for _ in range(32))).decode()
    assert _found(f"after the restore we used {laravel} as APP_KEY", laravel)
    # a name that is no secret's, or prose after "as", is not one
    scanner = SecretScanner()
    assert scanner.scan(f"we keep {_r(_HEXD, 40)} as BUILD_COMMIT_SHA") == []
    assert scanner.scan(f"imported {_uuid()} as TENANT_ID for the demo") == []
    assert scanner.scan("use the staging cluster as deploy_target for now") == []


def test_a_nearer_name_decides_how_a_value_is_read() -> None:
    # "auth" (a secret's word) comes first; the value is the "Heroku API key"'s, a UUID
    uuid = _uuid()
    assert _found(f"Remember: when billing starts failing auth again, the working Heroku API key is {uuid}.", uuid)
    assert _found(f"when relay fails auth, the working Postmark server token is {uuid}.", uuid)
    # still an id where the nearer name is one
    assert SecretScanner().scan(f"auth failed again for the request id {uuid}") == []


def test_circleci_bitbucket_braintree_and_fcm_server_key_formats() -> None:
    circle = "CCI" + "PAT_" + _r(_AN, 22) + "_" + _r(_HEXD, 40)
    assert _found(f"mit dem neuen Schlüssel {circle} läuft es wieder.", circle)
    bitbucket = "AT" + "BB" + _r(_AN, 32)
    assert _found(f"the app password is in the pipeline: {bitbucket}", bitbucket)
    braintree = "access_token" + "$production$" + _r(string.ascii_lowercase + string.digits, 16) + "$" + _r(_HEXD, 32)
    assert _found(f"> Authorization: Bearer {braintree}\n> User-Agent: curl/8.5.0", braintree)
    fcm = "AA" + "AA" + _r(_B64U, 7) + ":APA91b" + _r(_B64U, 134)
    assert _found(f"push still failing with {fcm}", fcm)
    # a device's registration token has the same tail and no "AAAA" part: it passes
    device = _r(_B64U, 22) + ":APA91b" + _r(_B64U, 134)
    assert SecretScanner().scan(f"registered device token {device}") == []


def test_quoted_command_line_values_with_spaces_and_pgpass_phrases() -> None:
    phrase = " ".join(_RNG.sample(["nectar", "saddle", "silver", "falcon", "velvet", "pillow", "cobalt"], 5))
    assert _found(f"$ sshpass -p '{phrase}' ssh etl@10.2.4.7", phrase)
    capital = " ".join(w.capitalize() for w in phrase.split()) + "55"
    assert _found(f"$ docker login -u ci -p '{capital}' registry.example.net", capital)
    assert _found(f"$ cat ~/.pgpass\ndb1.internal:5432:analytics:etl:{phrase}\n", phrase)
    # logfmt: the next field ends an unquoted passphrase
    assert _found(f"DEBUG auth: login user=app password={phrase} host=db1.internal", phrase)


def test_curl_cookies_and_urls_after_a_user_flag() -> None:
    sid = "s%3A" + _r(_B64U, 32) + "." + _r(_B64U, 43)
    assert _found(f"curl -b 'connect.sid={sid}' https://app.example.net/account", sid)
    # `redis-cli -u URL`: the URL's scheme is no user, its host no password
    assert SecretScanner().scan("redis-cli -u redis://cache-redis:6379/5 ping") == []


def test_a_django_key_is_no_query_string() -> None:
    # (a query's value holds no "#" and a "%" only as an escape)
    key = "f=*t##pj" + _r(string.ascii_lowercase + string.digits, 6) + "(7%&i8=h*" + _r(string.ascii_lowercase, 20)
    assert _found(f"Django SECRET_KEY is {key} for now", key)
    assert SecretScanner().scan("see https://example.net/search?q=term%20x&page=2 for the token docs") == []


def test_what_a_repl_a_config_endpoint_or_a_command_prints_for_a_secret_name() -> None:
    key = _r(_AN, 40)
    assert _found(f"In [8]: os.environ[\"INTEGRATION_SECRET\"]\nOut[8]: '{key}'", key)
    assert _found(f"$ node\n> process.env.WEBHOOK_SIGNING_SECRET\n'{key}'\n> .exit", key)
    phrase = " ".join(_RNG.sample(["nectar", "saddle", "silver", "falcon", "velvet", "pillow", "cobalt"], 5))
    assert _found(f"> process.env.RESTIC_PASSWORD\n'{phrase}'", phrase)
    # Spring Boot's /actuator/env: the variable's name keys an object with its value
    assert _found(f'{{\n  "AUTH0_CLIENT_SECRET": {{\n    "value": "{key}",\n    "origin": "System"\n  }}\n}}', key)
    hexkey = _r(_HEXD, 40)
    assert _found(f"$ terraform output -raw shopify_webhook_secret\n{hexkey}\n", hexkey)
    # name/value pairs with blanks in the value: an app password's groups, an HTTP header's scheme
    letters = "".join(_RNG.sample(string.ascii_lowercase, 16))
    app = " ".join(letters[i : i + 4] for i in range(0, 16, 4))
    assert _found(
        f'[\n  {{\n    "name": "SMTP_PASSWORD",\n    "slotSetting": false,\n    "value": "{app}"\n  }}\n]', app
    )
    okta = "00" + _r(_B64U, 40)
    har = f'"headers": [\n  {{\n    "name": "Authorization",\n    "value": "SSWS {okta}"\n  }}\n]'
    assert _found(har, okta)
    # what is echoed for a name that is no secret's passes
    scanner = SecretScanner()
    assert scanner.scan("In [3]: os.environ['SERVER_PORT']\nOut[3]: '8080'") == []
    assert scanner.scan(f"$ terraform output -raw vpc_id\nvpc-{_r(_HEXD, 17)}") == []
    assert scanner.scan('{\n  "SERVER_PORT": {\n    "value": "8080"\n  }\n}') == []


def test_pinecone_netlify_tailscale_and_meta_token_formats() -> None:
    pinecone = "pc" + "sk_" + _r(_AN, 5) + "_" + _r(_AN, 67)
    assert _found(f"export PINECONE={pinecone}", pinecone)
    netlify = "nf" + "p_" + _r(_AN, 36)
    assert _found(f"deploy with {netlify}", netlify)
    tailscale = "ts" + "key-auth-k" + _r(_AN, 11) + "CNTRL-" + _r(_AN, 33)
    assert _found(f"join with {tailscale}", tailscale)
    meta = "EA" + "AB" + _r(_AN, 180)
    assert _found(f"graph call used {meta}", meta)
    # Square's "EAAA" tokens are 60 characters: not a Meta token by length
    assert SecretScanner().scan("the word EAAA alone") == []


def test_joined_names_recovery_codes_and_session_cookies() -> None:
    key = _r(_HEXD, 32)
    assert _found(f'cfg := Config{{\n\tAlgoliaadminapikey: "{key}",\n}}', key)
    uuid = _uuid()
    assert _found(f'    Postmarkservertoken = "{uuid}",', uuid)
    phrase = " ".join(_RNG.sample(["nectar", "saddle", "silver", "falcon", "velvet", "pillow", "cobalt"], 5))
    assert _found(f'    Borgpassphrase = "{phrase}",', phrase)
    code = _r(_HEXD, 4) + "e-" + _r(_HEXD, 5)  # (all digits reads as a number range in prose: "12345-67890")
    assert _found(f"LOG_LEVEL=info\nMFA_RECOVERY_CODE={code}\n", code)
    digits = f"{_RNG.randrange(1000, 9999)} {_RNG.randrange(1000, 9999)}"
    assert _found(f'env:\n  MFA_RECOVERY_CODE: "{digits}"\n', digits)
    assert _found(f"{code} is the AWS root 2FA recovery code for preprod.", code)
    grouped = "-".join(_r(string.ascii_lowercase, 4) for _ in range(2)) + "-" + _r(string.ascii_lowercase, 3) + "7"
    assert _found(f"Used a backup code to get back in. Next unused one: {grouped}", grouped)
    jsession = _r("0123456789ABCDEF", 32)
    assert _found(f"Logged in as ci-bot; session cookie JSESSIONID={jsession} (expires in 14 days).", jsession)
    sid = "s%3A" + _r(_B64U, 32) + "." + _r(_AN, 43)
    assert _found(f"here's my admin session so you can reproduce: connect.sid={sid}", sid)
    cookie = _r(string.ascii_lowercase + string.digits, 32)
    export = f'{{"cookies": [{{\n  "name": "sessionid",\n  "value": "{cookie}",\n  "path": "/"\n}}]}}'
    assert _found(export, cookie)
    # a count of codes, a word after a recovery code's name, a name that is only "monkey"
    scanner = SecretScanner()
    assert scanner.scan("RECOVERY_CODES_LEFT=8") == []
    assert scanner.scan("enter the recovery code when prompted") == []
    assert scanner.scan(f'monkey = "{_r(string.ascii_lowercase, 12)}"') == []


def test_a_value_then_the_role_prose_or_a_reply_gives_it() -> None:
    token = _r(_B64U, 40)
    assert _found(f"Per Jonas: hermes usa {token} come Cloudflare API token, non committarlo.", token)
    assert _found(f"Para Anna: usa {token} como storage account access key en orion.", token)
    hexkey = _r(_HEXD, 32)
    assert _found(f"> {hexkey} is the Algolia admin API key for dev.", hexkey)
    uuid = _uuid()
    assert _found(f"Wei: can you retry with {uuid}?\nassistant (Cursor): ok, using that as the Heroku API token.", uuid)
    django = _r(string.ascii_lowercase + string.digits, 20) + "(" + _r("!@#%^&*-_=+", 6) + ")" + _r(_HEXD, 24)
    assert _found(f"{django} <- Django secret key (uat), keep it handy", django)
    app = "".join(_RNG.sample(string.ascii_lowercase, 16))
    assert _found(f"read the Gmail app password for ci@example.net from this note. Value: {app}", app)
    phrase = " ".join(_RNG.sample(["nectar", "saddle", "silver", "falcon", "velvet", "pillow", "cobalt"], 4))
    assert _found(f"the keystore passphrase was revoked. Replaced it with {phrase}; monitoring is green.", phrase)
    assert _found(f"the GPG passphrase that Camille gave me ({phrase}) only works from the VPN.", phrase)
    assert _found(f"le GPG passphrase avait expiré, le nouveau est « {phrase} ».", phrase)
    seed = "".join(_RNG.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(14)) + "7Q"
    assert _found(f"| service | env | 2FA seed |\n|---|---|---|\n| crm | stage | {seed} |", seed)
    assert _found(f"Let op: de TOTP seed voor stage is {seed}.", seed)
    secret = _r(_AN, 40)
    assert _found(
        f"* [svc] | service | env | Auth0 client secret |\n|---|---|---|\n| ledger | prod | {secret} |", secret
    )
    # a password that starts with "$" inside shell single quotes is no variable
    chosen = "$Pierogi" + str(_RNG.randrange(1000, 9999))
    assert _found(f"$ PGPASSWORD='{chosen}' psql -h db1.internal -U etl -c 'select 1'", chosen)
    # the role given is no secret's; a value that is not random
    scanner = SecretScanner()
    assert scanner.scan(f"usa {_r(_HEXD, 40)} come commit di base per il rilascio.") == []
    assert scanner.scan("can you retry with the staging cluster?\nassistant: ok, using that as the base image.") == []
    assert scanner.scan("Use 30 as the token budget per request.") == []


def test_published_dev_keys_references_errors_and_ciphertext_pass() -> None:
    scanner = SecretScanner()
    # Azurite's (the Azure Storage emulator's) published development account key
    azurite = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq" + "/K1SZFPTOtr/KBHBeksoGMGw=="
    conn = f"AzureWebJobsStorage=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={azurite};"
    assert scanner.scan(conn) == []
    other = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(64))).decode()
    assert _found(conn.replace(azurite, other), other)
    # AWS CLI errors name a token and print a request id
    error = "An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: "
    assert scanner.scan(error + f"The security token included in the request is invalid.\nRequestId: {_uuid()}") == []
    expired = "An error occurred (ExpiredToken) when calling the ListBuckets operation: "
    assert scanner.scan(expired + f"The provided token has expired. (request {_uuid()})") == []
    # Cloud Run's secret references, code reading variables, placeholders, Jenkins' ciphertext
    assert scanner.scan("gcloud run deploy api --set-secrets=DB_PASSWORD=api-db:latest,SENDGRID_API_KEY=api-sg:2") == []
    rust = 'let db_password = std::env::var("DB_PASSWORD").context("DB_PASSWORD must be set")?; // 3d232c'
    assert scanner.scan(rust) == []
    assert scanner.scan("database:\n  host: localhost\n  user: app\n  password: please-change\n  pool: 8") == []
    jenkins = "{AQAAABAAAA" + "AQ" + base64.b64encode(bytes(_RNG.randrange(256) for _ in range(48))).decode() + "}"
    assert scanner.scan(f"<username>postgres</username>\n<password>{jenkins}</password>") == []
    # a file's path is no value the next line names; a listing of variables; a config block
    assert scanner.scan("memory/2024-07-26.md\nJWT_SECRET を .env に設定してください。") == []
    listing = "$ gh secret list\nREDIS_PASSWORD\tUpdated 2024-02-18\nDATABASE_URL\tUpdated 2024-02-18"
    assert scanner.scan(listing) == []
    assert scanner.scan("redis_password: ${REDIS_PASSWORD}\nregion: eu-central-1") == []


def test_diff_hunks_and_quoted_files_are_read_as_the_files_they_are() -> None:
    scanner = SecretScanner()
    # a "+" line of a unified diff reads as the line it adds: Azurite's published key passes there too
    azurite = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq" + "/K1SZFPTOtr/KBHBeksoGMGw=="
    line = f"ConnectionString=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={azurite};"
    diff = f"--- a/.env.example\n+++ b/.env.example\n@@ -0,0 +1,2 @@\n+# local emulator\n+{line}"
    assert scanner.scan(diff) == []
    secret = _r(_AN, 32)
    assert _found(
        f"--- a/app.env\n+++ b/app.env\n@@ -1,2 +1,2 @@\n-DB_PASSWORD=${{DB_PASSWORD}}\n+DB_PASSWORD={secret}", secret
    )
    # what a JSON string's escapes run together is judged on the file it quotes
    quoted = '{"text": "Twilio account SID (not secret, used for routing): AC' + _r(_HEXD, 32) + '\\nMessaging: ok"}'
    assert scanner.scan(quoted) == []
    # a UNC path's doubled backslash is no escape
    chosen = "thund3r" + _r(string.ascii_lowercase, 6) + "10."
    assert _found(f"net use Z: \\\\nas\\share '{chosen}' /user:CORP\\migrator", chosen)


def test_ciphertext_fingerprints_and_references_pass() -> None:
    scanner = SecretScanner()
    b64 = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(32))).decode()
    assert (
        scanner.scan(f"spring.datasource.password=ENC({b64})\njasypt.encryptor.algorithm=PBEWITHHMACSHA512ANDAES_256")
        == []
    )
    fingerprint = b64.rstrip("=")[:43]
    assert scanner.scan(f"SFTP drop: host sftp1.internal, key-based auth only, host key SHA256:{fingerprint}") == []
    unit = "[Service]\nLoadCredential=db-password:/etc/credstore/app.db-password\nEnvironment=DB_PASSWORD_FILE=%d/db-password"
    assert scanner.scan(unit) == []
    lookup = "db_password: \"{{ lookup('community.hashi_vault.hashi_vault', 'secret=kv/data/app:password') }}\""
    assert scanner.scan(lookup) == []
    read = '{"tool": "vault.read", "result": {"keys": ["password", "username"], "values": "<masked>"}}'
    assert scanner.scan(read) == []


def test_network_hsm_and_directory_credentials_by_their_vendors_syntax() -> None:
    pw = "Qx" + _r(_AN, 14) + "!"
    assert _found(f"snmp-server group NMS v3 auth\nsnmp-server user nms NMS v3 auth sha {pw}\nend", pw)
    assert _found(f"snmp-server user nms NMS v3 auth sha Other1!x priv aes 128 {pw}", pw)
    assert _found(f"interface Vlan10\n ip ospf message-digest-key 1 md5 {pw}\n!", pw)
    assert _found(f"key chain BGP\n key 1\n  key-string 7 {pw}", pw)
    assert _found(f'key = "{pw}"\naccounting file = /var/log/tac_plus.acct', pw)
    pin = str(_RNG.randrange(10**9, 10**10))
    assert _found(f"PKCS11_KEY_URI: pkcs11:token=HSM1;object=sign?pin-value={pin}", pin)
    assert _found(f"pkcs11-tool --module /usr/lib/softhsm/libsofthsm2.so --login --pin {pw} --list-objects", pw)
    assert _found(f"/opt/cloudhsm/bin/key_mgmt_util\nCommand: loginHSM CU crypto_user {pw}\n", pw)
    assert _found(f"ktpass /princ HTTP/web.example.org@CORP /mapuser CORP\\svc /pass {pw} /out http.keytab", pw)
    assert _found(f"ftp -n mvs1.example.org <<EOF\nuser IBMUSER {pw}\nquote site filetype=jes\nEOF", pw)
    token = _uuid()
    assert _found(f'acl {{\n  enabled = true\n  tokens {{\n    agent = "{token}"\n  }}\n}}', token)
    assert _found(f"Consul access created. ACL token (SecretID): {token}", token)
    assert _found(f"the password for .pgpass: pg1.example.org:5432:*:app:{pw}", pw)
    hook = _r(_AN, 40)
    assert _found(f"consul kv put config/app/github_webhook_secret '{hook}'", hook)
    assert _found(f"Parameters:\n  JwtSecret:\n    Type: String\n    NoEcho: true\n    Default: '{hook}'", hook)
    assert _found(f"Anna: {hook} ist das neue access token für GoCardless.", hook)
    scanner = SecretScanner()
    # hashed or templated forms, and values named as something else, pass
    assert scanner.scan("snmp-server user nms NMS v3 encrypted auth sha 0A1B2C3D4E5F60718293A4B5C6D7E8F9") == []
    assert scanner.scan("consul kv put config/app/log_level 'info'") == []
    assert scanner.scan("ftp -n host <<EOF\nuser IBMUSER ${RACF_PASSPHRASE}\nEOF") == []
    assert scanner.scan(f"deployed {_r(_HEXD, 40)} (commit on main) to staging") == []


def test_firebase_sign_in_domain_request_ids_hash_names_and_short_bearer_codes() -> None:
    scanner = SecretScanner()
    key = "AI" + "za" + "Sy" + _r(_B64U, 33)
    # a web app's client config names its sign-in domain: its key ships in every page
    web = f'const firebaseConfig = {{\n  apiKey: "{key}",\n  authDomain: "shop-{_r(string.digits, 4)}.firebaseapp.com"\n}};'
    assert scanner.scan(web) == []
    assert _found(f'const mapsConfig = {{\n  apiKey: "{key}",\n  region: "eu"\n}};', key)
    rid = "req_" + _r(string.ascii_lowercase + string.digits, 14)
    assert scanner.scan(f"AuthenticationError: Incorrect API key provided. Check OPENAI_API_KEY. ({rid})") == []
    salt, digest = _r(_B64U, 22), _r(_B64U, 43)
    assert scanner.scan(f"We store passwords as argon2id, e.g. $argon2id$v=19$m=65536,t=3,p=4${salt}${digest}.") == []
    assert scanner.scan(f"Deployed auth at {_r(_HEXD, 40)} to qa.") == []
    code = _r(_HEXD, 4) + "z" + "-" + "k" + _r(_HEXD, 4)
    assert _found(f'curl -H "Authorization: Bearer {code}" https://api.example.org/v1/me', code)
    django = _r(_AN, 12) + "#^&*(" + _r(_AN, 20)
    assert _found(f"http POST api.example.org/x Authorization:'Bearer {django}'", django)
    assert _found(
        "reset Omar's password to orbit pepper river copper cloud; he changes it later",
        "orbit pepper river copper cloud",
    )
    # a password that merely contains a scheme's name is still one
    assert _found("password: argon2id-Horse-77", "argon2id-Horse-77")


def test_values_announced_below_their_name_answers_in_chat_exports_and_pytest_reports() -> None:
    pw = "Q0" + _r(_AN, 18) + "7"
    assert _found(f"TODO(@marta): move the Snowflake password out of the repo.\nCurrent value: {pw}", pw)
    assert _found(f"Decision: one shared Kaggle API key.\nAgreed value for now: {pw} (Ana keeps it)", pw)
    uuid = _uuid()
    assert _found(f"move the Postmark server token out of the repo.\nCurrent value: {uuid}", uuid)
    phrase = "tulip orbit windmill maple granite"  # (a first word shorter than six letters)
    assert _found(f"TODO: move the Android keystore password out of the repo.\nCurrent value: {phrase}", phrase)
    chat = "#dev\nbram 10:51\n  can you DM me the Snowflake password? the wiki is empty\nkasia 11:39\n  `{}` (delete after)"
    assert _found(chat.format(pw), pw)
    assert _found(chat.format("tundra ripple orbit maple"), "tundra ripple orbit maple")
    hexkey = _r(_HEXD, 40)
    report = "____ test_x ____\n    assert settings.{} == expected\nE   AssertionError: assert '{}' == '<unset>'"
    assert _found(report.format("wandb_api_key", hexkey), hexkey)
    assert _found(report.format("kaggle_key", hexkey[:32]), hexkey[:32])
    assert SecretScanner().scan(report.format("db_host", "db.internal")) == []
    pw = "Qz7!mLp2#Rv9"
    assert _found(
        f">       assert expected == settings.smtp_password\nE       AssertionError: assert 'x' == '{pw}'", pw
    )
    assert _found(f">       assert cfg['smtp_password'] == expected\nE       AssertionError: assert '{pw}' == 'x'", pw)
    token = _r(_AN, 24)
    assert _found(f"The deploy token for the registry.\n\nCurrent value: {token}", token)
    assert _found(f"The deploy token for the registry.\n- Current value: {token}", token)


def test_vendor_keys_salts_signatures_and_logins_in_their_usual_spellings() -> None:
    hexkey = _r(_HEXD, 32)
    assert _found(f'[kaggle]\nkaggle_key = "{hexkey}"\nenvironment = "preview"', hexkey)
    assert _found(f'static let kaggleKey = "{hexkey}"', hexkey)
    assert SecretScanner().scan(f'cache_key = "{hexkey}"') == []
    assert _found(f'variable "kaggle_token_x" {{\n  sensitive = true\n  default   = "{hexkey}"\n}}', hexkey)
    salt = "".join(_RNG.choice(_AN + "!@#$%^&*()-_[]{}<>~+=,.;:/?|") for _ in range(64))
    salt = salt.replace('"', "")
    assert _found(f'  "wordpress_nonce_salt": "{salt}",', salt)
    assert _found('{"vonage_api_secret": "lzlqTxmyZqy9f5Tz"}', "lzlqTxmyZqy9f5Tz")
    sig = _r(_HEXD, 64)
    url = f"https://b.s3.eu-west-1.amazonaws.com/r/a.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature={sig}"
    assert _found(f"[download]({url})", sig)
    assert _found(f"the link is {url}, rotate it", sig)
    key = _r(_HEXD, 40)
    assert _found(f"$ wandb login {key}\nwandb: Appending key for api.wandb.ai to your netrc file", key)
    phrase = "orbit_velvet_maple_monsoon"
    assert _found(f"kubectl create secret generic wp-admin-password --from-literal=wp_admin_password={phrase}", phrase)
    assert _found(
        "WordPress admin password (preview) = pepper windmill kettle tulip, rotate after go-live",
        "pepper windmill kettle tulip",
    )


def test_docs_logins_flags_versioned_names_and_clause_words_pass() -> None:
    scanner = SecretScanner()
    assert scanner.scan('engine = create_engine("postgresql+psycopg2://scott:tiger@localhost/app")') == []
    assert (
        scanner.scan("passwords of 20+ chars; generate them with `openssl rand -base64 24`, store in Bitwarden") == []
    )
    assert _found("DB_PASSWORD=acme_admin_v3", "acme_admin_v3")  # (a versioned name may be a chosen password)
    assert scanner.scan("export WANDB_API_KEY, HF_TOKEN, SNOWFLAKE_PASSWORD before running make train") == []
    assert scanner.scan(f"order_id=INV-1 signature_key={_r(_HEXD, 128)} status_code=200") == []
    # a BIP39 phrase may hold a clause word ("about" is on its list)
    words = "about cycle crane dose asset alone media carpet crush language light clay"
    assert _found(f"seed words for the test wallet: {words}", words)


def test_settings_about_secrets_ui_strings_and_flag_arguments_are_no_secrets() -> None:
    scanner = SecretScanner()
    # a key's name in code that is no service's: a theme's, a query's
    assert scanner.scan('theme_key = "darkModeHighContrast"') == []
    assert scanner.scan("queryKey: sidebarCollapsedV2") == []
    # a setting about passwords, announced on the line below it
    assert scanner.scan("Setting: PASSWORD_MAX_AGE\nCurrent value: 90days") == []
    assert scanner.scan("password reset link expiry\nCurrent value: 24hours") == []
    assert scanner.scan("password manager vendor\nCurrent value: Bitwarden2024") == []
    # a question about a secret's rule or label, answered with a quoted phrase
    assert scanner.scan('What\'s the passphrase rule?\n"four random dictionary words" - diceware') == []
    # a login's flag and its argument; a SHA after the word "login"
    assert scanner.scan("$ docker login --username acme_registry_readonly_service_account_2024") == []
    assert scanner.scan(f"bisect says: bad login {_r(_HEXD, 40)}") == []
    assert scanner.scan("authorization: denied (policy=deny-all-external-2024, rule=#42)") == []
    assert scanner.scan("the bearer ab12-cd34-ef56 header is a test fixture") == []
    # Terraform's sensitive variables that hold ids and names
    for value in ("vpc-0a1b2c3d4e5f67890", "prod-eks-cluster-2024", "acmeGithubActionsProdOidc2024"):
        assert scanner.scan(f'variable "x" {{\n  sensitive = true\n  default = "{value}"\n}}') == [], value
    token = _r(_AN, 24)
    assert _found(f'variable "x" {{\n  default = "{token}"\n  sensitive = true\n}}', token)
    # another Google key beside a Firebase config is still found
    key = "AI" + "za" + "Sy" + _r(_B64U, 33)
    assert _found(f'authDomain: "acme-app.firebaseapp.com"\nAlso the Gemini key for the backend: {key}', key)
    # a passphrase ends before a word that joins clauses, and a quoted header's token may hold any symbol
    phrase = "tundra ripple orbit maple"
    found = scanner.scan(f"the vault passphrase: {phrase} through march")
    assert [(f.start, f.end) for f in found] == [(22, 22 + len(phrase))]
    django = _r(_AN, 12) + "!(#" + _r(_AN, 12) + ")@"
    assert _found(f'curl -H "Authorization: Bearer {django}" https://api.example.org', django)
    bare = _r(_AN, 20)
    found = scanner.scan(f"curl 'https://x/api?authorization=Bearer {bare}&page=2'")
    assert found and all(f.end - f.start == len(bare) for f in found)


def test_stream_keys_grouped_and_upper_hex_keys_and_cli_passwords() -> None:
    scanner = SecretScanner()
    body = _r(_AN, 30)
    twitch = "live_" + _r(string.digits, 9) + "_" + body
    assert _found(f"TWITCH_STREAM_KEY={twitch}", twitch)
    grouped = "-".join(_r(string.ascii_lowercase + string.digits, 4) for _ in range(5))
    grouped = grouped[:3] + "7" + grouped[4:]  # (a digit among the groups)
    assert _found(f"[youtube_live]\nyt_stream_key = {grouped}\nverbose = false", grouped)
    assert _found(f'public const string YoutubeStreamKey = "{grouped}";', grouped)
    assert _found(f"ffmpeg -re -i a.mp4 -f flv rtmp://a.rtmp.youtube.com/live2/{grouped}", grouped)
    double = _uuid() + "-" + _uuid()[9:]  # (a UUID and more groups: no id is written so)
    assert _found(f"the bunny.net storage zone AccessKey for serde-lite releases is {double} (created today)", double)
    upper = _r("0123456789ABCDEF", 32)
    assert _found(f"STEAM_PUBLISHER_KEY={upper}", upper)
    assert _found(f'variable "steam_publisher_key" {{\n  default = "{upper}"\n}}', upper)
    assert _found(f'curl -H "Fastly-Key: {body}" https://api.fastly.com/service/x/purge_all', body)
    unity = _r(_HEXD, 32)
    assert _found(f'curl -H "Authorization: Basic {unity}" https://build-api.example.com', unity)
    pw = "Meadow!rover86"
    assert _found(f"signtool sign /f app.pfx /p {pw} /fd SHA256 build\\app.exe", pw)
    assert _found(f'echo "{pw}" | gpg --batch --pinentry-mode loopback --passphrase-fd 0 --detach-sign a.tgz', pw)
    assert _found(f"steamcmd +login builder {pw} +run_app_build app.vdf +quit", pw)
    upload = _uuid()
    assert _found(f"./codecov -t {upload} -f coverage.xml", upload)
    assert _found(f"curl -u bot@acme.zulipchat.com:{body} https://acme.zulipchat.com/api/v1/messages", body)
    # licence keys in upper-case groups stay an install's, and a consumer key is the client's id
    licence = "-".join(_r(string.ascii_uppercase + string.digits, 5) for _ in range(5))
    assert scanner.scan(f"License: Sublime Text\nSeats: 1\nKey: {licence}") == []
    assert scanner.scan(f"salesforce.consumerKey=3MVG9{_r(_AN, 70)}") == []


def test_owners_entries_lookups_and_leases_are_no_values() -> None:
    scanner = SecretScanner()
    assert scanner.scan("Default admin password for the 3d-printer image (fw 2.5.5) is `changeme`.") == []
    assert scanner.scan("Токен для crates.io лежит в 1Password, хранилище «Release», запись crates-io-82.") == []
    assert scanner.scan("code signing .pfx password ligger nu i Bitwarden (code_signing_pfx), inte här.") == []
    assert scanner.scan('steam_key = Variable.get("steam_web_api_key")  # dag mqtt-bridge_stats_19') == []
    assert scanner.scan("Deploy token username for the x registry is gitlab+deploy-token-905073; value in CI.") == []
    assert scanner.scan("DHCP leases:\n84:74:31:C5:19:D3  100.121.134.228  doorbell") == []
    note = "TODO: rotate the GPG key passphrase after the release (current one created 2026-08-16, kept in 1Password)."
    assert scanner.scan(note) == []
    # a value after a label that ends in such a word is still the value
    pw = "tulp~9869*Sierra"
    assert _found(f"@marc here's the LDAP bind password you asked for: {pw} - please don't paste it", pw)


def test_code_names_where_a_value_might_stand_are_no_secrets() -> None:
    scanner = SecretScanner()
    assert scanner.scan("def sign(self, msg: bytes, key: EllipticCurvePrivateKey) -> bytes:") == []
    assert scanner.scan("outputs = model.generate(**inputs, token=decoder_input_ids, stream=False)") == []
    assert scanner.scan("    _cloud_watch_logging_session: CloudWatchLoggingSession | None") == []
    assert scanner.scan("key {string|ArrayBuffer|Buffer|TypedArray|DataView}") == []
    assert scanner.scan("token_loader = SSOTokenLoader(cache=self._token_cache)") == []
    assert scanner.scan("    _write_secret(Path(constants.HF_STORED_TOKENS_PATH))") == []
    assert scanner.scan("In multigraphs, triangles are identified by their vertices (the pw of each).") == []
    assert scanner.scan("If you're implementing a client, you should pass :data:`h11.CLIENT` instead.") == []
    assert _found("broker user esphome, pass OtterQuokka78!", "OtterQuokka78!")
    assert scanner.scan('key = r"Software\\Microsoft\\DevStudio\\6.0"') == []
    # passphrases of dictionary words stay passwords, a code word among them or not
    for phrase in (
        "brush.height.exhibit.doctor.enable",
        "orbit_velvet_maple_monsoon",
        "HarborOrange=81",
        "river.Winter775",
        "collect_access_filter_eternal24",
    ):
        assert _found(f"password: {phrase}", phrase), phrase


def test_vendors_public_client_values_ids_and_policies_pass_their_secrets_do_not() -> None:
    scanner = SecretScanner()
    # values their vendors document as public: they ship in every page or app
    assert scanner.scan(f"NREUM.init = {{ licenseKey: 'NRJS-{_r(_HEXD, 19)}', applicationID: '601' }}") == []
    assert scanner.scan(f"datadogRum.init({{ clientToken: 'pub{_r(_HEXD, 32)}', site: 'datadoghq.eu' }})") == []
    assert scanner.scan(f'Purchases.configure(withAPIKey: "appl_{_r(_AN, 27)}")') == []
    tokenization = (
        f"production_{_r(string.ascii_lowercase + string.digits, 8)}_{_r(string.ascii_lowercase + string.digits, 16)}"
    )
    assert scanner.scan(f'braintree.client.create({{ authorization: "{tokenization}" }})') == []
    mixpanel = _r(_HEXD, 32)
    assert scanner.scan(f'Mixpanel.initialize(token: "{mixpanel}")  // project token, public in the app') == []
    # an id said to belong to someone; a policy's name where the secret is kept
    assert (
        scanner.scan(f"Confluent Cloud API key {_r(string.ascii_uppercase + string.digits, 16)} belongs to sa-x1") == []
    )
    assert (
        scanner.scan("Where creds live: `vault kv get -field=password secret/x` (policy crm-sync-read, ask Ana).") == []
    )
    # the secrets beside them
    klaviyo = "pk_" + _r(_HEXD, 34)
    assert _found(f"KLAVIYO_PRIVATE_API_KEY={klaviyo}", klaviyo)
    working = _r(_HEXD, 32)
    note = "Lesson: checkout failed against Algolia because the Admin API key was rotated. The working value is {} - update Vault."
    assert _found(note.format(working), working)


def test_secret_store_reads_and_pass_entries_name_secrets_and_uuid_client_secrets_are_secrets() -> None:
    scanner = SecretScanner()
    assert scanner.scan('pw = dbutils.secrets.get(scope="neuroimaging-2026", key="pg-password")') == []
    assert (
        scanner.scan("aws secretsmanager get-secret-value --secret-id neuroimaging-2026/rds --query SecretString") == []
    )
    assert scanner.scan("gcloud secrets versions access latest --secret=lab-2026-api-key --project=md-527") == []
    assert scanner.scan("Passwort nie im Klartext speichern, stattdessen `pass insert lab/login2` verwenden.") == []
    assert scanner.scan("비밀번호는 1Password 공유 금고에 있습니다 (neuroimaging-2026).") == []
    assert scanner.scan("client_secret: 123e4567-e89b-12d3-a456-426614174000") == []  # (RFC 4122's example)
    # ORCID issues client secrets as UUIDs; a Teams webhook URL may stop at its secret
    orcid = _uuid()
    assert _found(f"ORCID_CLIENT_SECRET={orcid}", orcid)
    token = _r(_HEXD, 32)
    hook = f"https://lab.webhook.office.com/webhookb2/{_uuid()}@{_uuid()}/IncomingWebhook/{token}"
    assert _found(f"Slurm job notifications go to Teams via {hook}", token)
    # a cookie set through a session's method is still a cookie
    cookie = "s%3A" + _r(_AN, 32) + "." + _r(_AN, 43)
    assert _found(f's.cookies.set("connect.sid", "{cookie}", domain="app.example.org")', cookie)


def test_make_webhooks_brevo_smtp_cloudflare_global_keys_site_keys_and_traefik_hashes() -> None:
    scanner = SecretScanner()
    token = _r(string.ascii_lowercase + string.digits, 32)
    assert _found(f"Make scenario webhook: https://hook.eu2.make.com/{token}", token)
    brevo = "xsmtp" + "sib-" + _r(_HEXD, 64) + "-" + _r(_AN, 16)
    assert _found(f"SMTP_PASSWORD={brevo}", brevo)
    glob = _r(_HEXD, 37)
    assert _found(f"Cloudflare global key for ops is {glob}. Do not share.", glob)
    site = "6L" + _r(_B64U, 38)
    assert scanner.scan(f"reCAPTCHA site key on the quote form: {site}") == []
    label = "traefik.http.middlewares.auth.basicauth.users=sam:$apr1$" + _r(_AN, 8) + "$" + _r(_AN, 22)
    assert scanner.scan(f"traefik basic auth label: {label}") == []


def test_id_secret_pairs_long_grouped_keys_app_passwords_and_network_keys() -> None:
    scanner = SecretScanner()
    ghost = _r(_HEXD, 24) + ":" + _r(_HEXD, 64)
    assert _found(f"Ghost Admin API key: {ghost} (prod, do not share)", ghost)
    bunny = _uuid() + _r(_HEXD, 4) + "-" + _r(_HEXD, 4) + "-" + _r(_HEXD, 4) + "-" + _r(_HEXD, 4) + "-" + _r(_HEXD, 12)
    assert _found(f"export BUNNY_API_KEY={bunny}", bunny)
    wp = " ".join(_r(string.ascii_letters, 3) + _r(string.digits, 1) for _ in range(6))
    assert _found(f"wp_app_password is set to {wp} but the job still gets 401.", wp)
    assert _found(f"[15:35] a: what's the WordPress application password for preprod?\n[15:35] b: {wp}\n", wp)
    assert _found(f"here is the WordPress application password for the account:\n\n{wp}\n\nKeep it safe.", wp)
    m365 = "".join(_RNG.choice("bcdfghjklmnpqrstvwxz") for _ in range(16))
    assert _found(f"m365_app_password: {m365}", m365)
    unlock = _r(_HEXD, 32)
    assert _found(f"Note: the JTAG debug unlock key is {unlock}, never in the repo.", unlock)
    nwk = _r("0123456789ABCDEF", 32)
    assert _found(f'{{"deviceKeys": {{"nwkKey": "{nwk}", "devEui": "70B3D57ED0A74FCA"}}}}', nwk)
    group = base64.b64encode(_RNG.randbytes(64)).decode()
    assert _found(f"the Azure DPS enrollment group primary key for the fleet is {group} - rotate it", group)
    assert _found(f"export DPS_GROUP_KEY={group}", group)
    b2 = "K00" + _r(_AN, 28)
    assert _found(f'secrets:\n  b2ApplicationKey: "{b2}"', b2)
    # a table's primary key is an id, however it is written
    assert scanner.scan("the primary key is user_id, the secondary key is email") == []


def test_salts_mnemonics_settings_commands_and_printed_tokens() -> None:
    scanner = SecretScanner()
    salt = _r(_AN, 30) + "-" + _r(_AN, 20) + "_" + _r(_AN, 22)
    assert _found(f"Nota: el Drupal hash_salt de Skillforge es {salt} (no compartir).", salt)
    assert _found(f"[19:35] a: what's the Drupal hash_salt for staging?\n[19:35] b: {salt}\n", salt)
    words = ["absorb", "actor", "bus", "above", "average", "answer", "artist", "anchor", "black", "alert"]
    phrase = " ".join([*words, "banner", "beauty"])
    assert _found(f"uart:~$ cfg set wallet_mnemonic {phrase}\nOK", phrase)
    assert _found(f"- [ ] rotate Ledger recovery phrase (current {phrase}) before the audit", phrase)
    psk = _r(_AN, 12) + "#" + _r(_AN, 6)
    assert _found(f'uart:~$ settings set golioth/psk "{psk}"\nuart:~$ kernel reboot cold', psk)
    auth = _r(_AN, 10) + "+" + _r(_AN, 6)
    assert _found(f"$ tpm2_changeauth -c owner {auth}", auth)
    conan = _r(_AN, 12) + "?" + _r(_AN, 6)
    assert _found(f"$ conan remote login artifactory ci-bot -p {conan}", conan)
    token = _uuid()
    read = "kubectl get secret env -o jsonpath='{.data.POSTMARK_SERVER_TOKEN}' | base64 -d"
    assert _found(f"$ {read}\n{token}", token)
    passphrase = "ember maple walrus thistle velvet"
    assert _found(f"$ {read.replace('POSTMARK_SERVER_TOKEN', 'VAULT_PASSWORD')}\n{passphrase}", passphrase)
    app = "awmr hjmz ucgk ymia"
    assert _found(f"GMAIL_APP_PASSWORD ?= {app}\n\ndeploy:\n\t./deploy.sh", app)
    # a digest named after the password, a command substituted into a Makefile, Bitwarden's item ids
    digest = _r(_HEXD, 64)
    assert scanner.scan(f"<password_sha256_hex>{digest}</password_sha256_hex>") == []
    assert scanner.scan("ZENDESK_TOKEN := $(shell op read op://Support/Zendesk/token)\nsync-94:\n\tpython s.py") == []
    assert scanner.scan(f"bw get password {_uuid()} | ./upload.sh  # item id") == []
    assert scanner.scan("Default admin password is `changeme` (ticket OPS-205: force change on first login).") == []


def test_public_content_and_search_keys_and_published_test_vectors_pass() -> None:
    scanner = SecretScanner()
    assert scanner.scan(f"Ghost Content API key {_r(_HEXD, 26)} (theme maple)") == []
    assert scanner.scan(f"ghost_content_api_key: {_r(_HEXD, 26)}") == []
    app_id = _r(string.ascii_uppercase + string.digits, 10)
    assert scanner.scan(f"const client = algoliasearch('{app_id}', '{_r(_HEXD, 32)}'); // search key") == []
    fips = "2B7E1516" + "28AED2A6" + "ABF71588" + "09CF4F3C"
    assert scanner.scan(f"AES-128 test vector (FIPS-197): key {fips} - unit tests only") == []


@pytest.mark.parametrize(
    "text",
    [
        # (memories of the retrieval sets that the scanner once flagged: ordinary notes)
        "staff wifi 'Clinic-Staff' = WPA2-Enterprise via Meraki auth w/ Entra accounts.",
        "monitors connect over Wi-Fi to SSID Clinic-Devices (VLAN 20, WPA2-PSK).",
        "WPA2-PSK (key in Bitwarden 'Clinic-Devices'), hidden SSID",
        "support line, acct 8155 2001 0442 118, circuit 8831-4420-AB. have Dana's PIN (Bitwarden 'ISP acct').",
        "A stripper in Assets/Editor/Build/ShaderStripper.cs cut the shader keywords and light cookies to ~11k.",
        "tokens issued by one replica failed on the other with JWEDecryptionFailed, logging people out.",
        "refresh tokens live only in Keychain/Keystore",
        "Each refresh returns a new refresh token and forces re-login. Replaces the 15 min / sliding 30 day setup.",
        "The read token needs kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly on the keychain item.",
        "set the account to 'password never expires' with a 32-char random password in Bitwarden.",
        "nats creds rotated; telemetry.raw: 72h / 50GiB, events.*: 7d / 10GiB.",
        "We switched users back to password plus SMS. Lesson: roll passkeys out per credential provider.",
        "ALTER USER dbt SET RSA_PUBLIC_KEY_2 = '…' before the password goes away",
        'Missing key(s) in state_dict: "_fsdp_wrapped_module.model.layers.0.attn.q_proj.weight", ...',
        "the upload keystore lives in the CI secret UPLOAD_KEYSTORE_BASE64 and is decoded in the release job.",
    ],
)
def test_ordinary_memories_about_secrets_pass(text: str) -> None:
    assert SecretScanner().scan(text) == []


def test_what_security_tools_print_when_they_recover_a_credential() -> None:
    scanner = SecretScanner()
    nt = _r(_HEXD, 32)
    assert _found(f"PtH works: nxc smb 10.0.0.0/24 -u Administrator -H {nt} --local-auth", nt)
    assert _found(f"m.k:2216:aad3b435b51404eeaad3b435b51404ee:{nt}:::", nt)
    assert _found(f"\t * Username : i.p\n\t * NTLM     : {nt}\n", nt)
    assert _found(f"Engagement note: local admin NT hash reused across kiosks: {nt}", nt)
    cracked = "anchor-Walrus-64"
    assert _found(f"Cracked in 9 min with best64 rule: b.otieno -> {cracked}", cracked)
    assert _found(f"$ john --show ntlm.txt\nsvc_sql:{cracked}:4515:::\n\n1 password hash cracked", cracked)
    tgs = "$krb5tgs$23$*svc$CORP.LOCAL$HTTP/web*$" + _r(_HEXD, 32) + "$" + _r(_HEXD, 120)
    assert _found(f"$ hashcat -m 13100 tgs.txt rockyou.txt --show\n{tgs}:{cracked}", cracked)
    assert _found(f"lsadump::secrets -> _SC_Jenkins\ncur/text: {cracked}", cracked)
    assert _found(f"aircrack-ng capture-01.cap -w words.txt\n      KEY FOUND! [ {cracked} ]", cracked)
    assert _found(f"[+] {cracked} is the CORRECT key!", cracked)
    assert _found(f"impacket-mssqlclient sa:'{cracked}'@10.7.215.168 -windows-auth", cracked)
    token = "gh" + "p_" + _r(_AN, 36)
    basic = base64.b64encode(f"ci-bot:{token}".encode()).decode()
    assert _found(f"Notiz: match git basic authorization lautet {basic}.", basic)
    # hashes that must be cracked first, and the NT hash of the empty password, are no secrets
    v2 = "JDOE::LUMEN:" + _r(_HEXD, 16) + ":" + _r(_HEXD, 32) + ":" + _r(_HEXD, 120)
    assert scanner.scan(f"$NETNTLMv2 captured by Responder, queued for cracking:\n{v2}") == []
    empty = "31d6cfe0" + "d16ae931" + "b73c59d7" + "e0c089c0"
    assert scanner.scan(f"guest:501:aad3b435b51404eeaad3b435b51404ee:{empty}:::") == []


def test_policies_samples_sdk_keys_ids_and_encrypted_settings_pass() -> None:
    scanner = SecretScanner()
    assert scanner.scan("Password policy: min 12 chars; banned list includes 'Password1', 'Welcome123'.") == []
    sample = base64.b64encode(_RNG.randbytes(32)).decode()
    assert scanner.scan(f"verify the signature with the verifier token. Sample header value {sample} from a test") == []
    branch = "key_" + "live_" + _r(_AN, 32)
    assert scanner.scan(f'<meta-data android:name="io.branch.sdk.BranchKey" android:value="{branch}" />') == []
    assert scanner.scan(f"CM_KEYSTORE_PASSWORD: Encrypted({_r(_B64U, 80)})") == []
    assert scanner.scan(f"Refunded gift: ch_{_r(_AN, 24)} / pi_{_r(_AN, 24)} (event evt_{_r(_AN, 24)})") == []
    assert scanner.scan(f"B2 application key 'offsite': keyID 005{_r(_HEXD, 22)}, bucketId {_r(_HEXD, 24)}.") == []
    csrf = _r(_AN, 64)
    assert scanner.scan(f'<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">') == []
    assert scanner.scan("Failure Reason: Unknown user name or bad password.\nStatus: 0xC000006D") == []
    square_app = "sq0" + "idp-" + _r(_B64U, 22)
    assert scanner.scan(f"Square Web Payments SDK: applicationId '{square_app}'") == []
    # a password that starts like a payment id is still a password where it is named one
    password = "pi_" + _r(_AN, 16)
    assert _found(f"jco.client.passwd={password}", password)
    woo = "cs_" + _r(_HEXD, 40)
    assert _found(f"the WooCommerce REST consumer secret is {woo}.", woo)


def test_gateway_keys_game_server_tokens_and_public_widget_keys() -> None:
    scanner = SecretScanner()
    turnstile = "0x4AAAAAAAA" + _r(_B64U, 22)
    assert _found(f"export TURNSTILE_SECRET_KEY={turnstile}", turnstile)
    ptero = "pt" + "lc_" + _r(_AN, 43)
    assert _found(f"export PTERO_CLIENT_KEY='{ptero}'", ptero)
    gslt = _r("0123456789ABCDEF", 32)
    assert _found(f"./cs2 -dedicated +map de_inferno +sv_setsteamaccount {gslt} -port 27015", gslt)
    cheats = "Kestrel-fjord-walrus-falcon36"
    assert _found(f"> enablecheats {cheats}\nCheats enabled.", cheats)
    stream = "re_" + _r(string.digits, 7) + "_" + _r(_HEXD, 20)
    assert _found(f"[restream]\nstream_key = {stream}\nverbose = false", stream)
    velocity = "sclWwjy2cxr1"
    assert _found(f"environment:\n  - VELOCITY_SECRET={velocity}\n", velocity)
    recharge = "sk_1x1_" + _r(_HEXD, 64)
    assert _found(f"o API token do Recharge da loja é {recharge} — trocar depois.", recharge)
    crypt = _r(_HEXD, 32)
    assert _found(f"Nota: la crypt key de Magento para la tienda es {crypt}. No compartir.", crypt)
    hmac = _r("0123456789ABCDEF", 64)
    assert _found(f"ADYEN_NOTIFICATION_HMAC={hmac} pid=6471", hmac)
    salt = _r(_AN, 32)
    assert _found(f"Ghi chú: merchant salt PayU cho cửa hàng là {salt}, không chia sẻ.", salt)
    # values every visitor's browser gets, ids, names and public keys
    assert scanner.scan(f'<div class="yotpo" data-appkey="{_r(_AN, 40)}" data-product-id="93"></div>') == []
    storefront = _r(_HEXD, 32)
    assert (
        scanner.scan(f"Storefront API (public, safe in theme): X-Shopify-Storefront-Access-Token: {storefront}") == []
    )
    assert scanner.scan(f"Customer says checkout hung. Session cs_live_{_r(_AN, 58)} never completed.") == []
    assert scanner.scan("Icecast ships with source password 'hackme' and admin 'hackme' - change both.") == []
    age = "age1" + "".join(_RNG.choice("qpzry9x8gf2tvdw0s3jn54khce6mua7l") for _ in range(58))
    assert scanner.scan(f"age recipient for the radio secrets repo: {age}") == []
    assert scanner.scan("Bluesky app password looks like xxxx-xxxx-xxxx-xxxx - create one named 'crosspost-542'") == []
    assert scanner.scan(f"DISCORD_TOKEN=encrypted:{base64.b64encode(_RNG.randbytes(90)).decode()}") == []
    assert scanner.scan(f"Pterodactyl: API key 'bot' created by Elif (identifier {_r(_AN, 16)}), last used never") == []


def test_rural_network_values_announced_values_and_manager_paths() -> None:
    scanner = SecretScanner()
    community = "plover-noc-" + _r(string.digits, 3)
    assert _found(f"librenms: add device tower38.valleynet.coop community {community} v2c", community)
    assert _found('AT+CPIN?\n+CPIN: SIM PIN\nAT+CPIN="3726"\nOK', "3726")
    nwks = _r("0123456789ABCDEF", 32)
    assert _found(f"DEBUG config loaded: LORA_NWKSKEY={nwks}", nwks)
    secret = _r(_AN, 40)
    assert _found(
        f"memory: kofi asked me to remember the John Deere client secret (co-op office).\nvalue:\n{secret}", secret
    )
    assert _found(
        f"Hi,\nas discussed, the Climate FieldView client secret for east paddock is below.\n\n{secret}\n", secret
    )
    # a password manager's folders, a commit's short id, sops' ciphertext, digits of a setting
    assert scanner.scan("new one is in KeePass > Facilities > CCTV.") == []
    assert scanner.scan("# passwords are stripped by oxidized (808837b)") == []
    sops = f"ENC[AES256_GCM,data:{_r(_AN, 40)}=,iv:{_r(_AN, 43)}=,tag:{_r(_AN, 22)}==,type:str]"
    assert scanner.scan(f"wifi_password: {sops}") == []
    assert scanner.scan("Set-Cookie: grafana_session_expiry=8552747551; Path=/; Max-Age=2592000") == []
    assert (
        scanner.scan(f"AUTH0_DOMAIN=firm.eu.auth0.com\nAUTH0_CLIENT_ID={_r(_AN, 32)}\nAUTH0_CLIENT_SECRET=${{S}}") == []
    )
    assert (
        scanner.scan(f"Entra app certificate credential: thumbprint {_r('0123456789ABCDEF', 40)}, expires soon.") == []
    )
    assert scanner.scan(f"Clio API key is in Key Vault as clio-secret, version {_r(_HEXD, 32)}.") == []
    # a generated password with "_" before "=" is no assignment
    password = "MhH6V0B_6=rXlGl9"
    assert _found(f"{password}\n(svc_veeam, domain MERIDIAN — the backup job's password)", password)


def test_vault_tables_access_pins_signing_passphrases_and_documented_examples() -> None:
    scanner = SecretScanner()
    notify = "bins_live-" + _uuid() + "-" + _uuid()
    table = "====== Data ======\nKey      Value\n---      -----\n"
    assert _found(f"$ vault kv get secret/city/notify_api_key\n{table}value    {notify}", notify)
    pin = _r(string.ascii_uppercase + string.digits, 64)
    assert _found(f"# Elavon Converge\nELAVON_SSL_PIN={pin}", pin)
    phrase = "quartz-lantern-glacier-falcon-nimbus"
    assert _found(f"MAV> signing setup {phrase}\nInitial timestamp 792883961454\nSetup signing key", phrase)
    # a GPIO pin, a key's fingerprint, the xkcd passphrase, a .NET configuration key, a key's name
    assert scanner.scan("#define LED_PIN 13\nLED_PIN=13") == []
    assert scanner.scan("signing key fingerprint: BD36 FDB3 BA5F 421A 896C 9E6D 8096 D1A4 6D3B 688D") == []
    assert scanner.scan("Policy: at least 14 chars, e.g. a passphrase like 'correct horse battery staple'.") == []
    assert scanner.scan('dotnet user-secrets set "Twilio:AuthToken" "<client-secret>" --project src/Permits') == []
    assert scanner.scan("API key name: portal-backend-90 (key id ea094b51aa7fbd84), secret shown once") == []
    assert scanner.scan("key id (sha256 prefix) 06984cee3f69 for amr-07") == []


def test_logged_settings_long_hex_groups_app_key_uuids_and_other_languages() -> None:
    password = "falcon-Copper-" + _r(string.digits, 3)
    assert _found(f"2026-11-04T03:14:22Z booking-bridge  | DEBUG password={password}\n", password)
    mews = _r("0123456789ABCDEF", 32) + "-" + _r("0123456789ABCDEF", 31)
    assert _found(f"MEWS_ACCESS_TOKEN={mews}", mews)
    app_key = _uuid()
    assert _found(f"TODO: move OHIP_APP_KEY={app_key} into the vault", app_key)
    xero = _r(_AN, 48)
    assert _found(f"Ghi chú: khóa Xero của Green Fork là {xero} — Erik đã cập nhật ngày 2026-01-21.", xero)
    cloudbeds = "cbat_" + _r(_AN, 32)
    assert _found(f"บันทึก: รหัส Cloudbeds ของ Hostal Marea คือ {cloudbeds} (อัปเดตโดย Emre)", cloudbeds)
    greek = "The*" + _r(string.digits, 5) + "FB"
    assert _found(
        f"Σημείωση: το password για Booking.com στο Kalima Suites είναι {greek}. Αλλαγή μετά τη σεζόν.", greek
    )
    # an article opens a phrase, not a password a person made
    assert _found(f"UNIFI_PASSWORD={greek}", greek)
    tower = base64.b64encode(b'{"tid": 49168}.' + _r(_HEXD, 40).encode()).decode().rstrip("=")
    assert _found(f"stringData:\n  TOWER_ACCESS_TOKEN: {tower}", tower)
    assert _found(
        "C:\\> net user Administrator MtI3KaK&d-J3-f_\nThe command completed successfully.", "MtI3KaK&d-J3-f_"
    )
    smartsheet = _r(_AN, 37)
    assert _found(f"smart = smartsheet.Smartsheet('{smartsheet}')", smartsheet)
    labkey = "apikey|" + _r(_HEXD, 32)
    assert _found(f'labkey.setDefaults(apiKey = "{labkey}", baseUrl = "https://labkey.lab.internal/")', labkey)
    radius = "Villa." + _r(string.digits, 5) + "UL"
    assert _found(f'echo "User-Name = healthcheck" | radclient -x 10.21.247.163:1812 status {radius}', radius)


def test_denied_public_ids_prompts_and_device_ciphertext_pass() -> None:
    scanner = SecretScanner()
    # an idempotency key, a logger's own name, a prompt, a Thai device code, FortiOS ciphertext
    assert scanner.scan(f"idempotency_key={_uuid()}") == []
    assert scanner.scan(f"DEBUG auth: token refreshed for user-{_r(_HEXD, 24)}") == []
    assert scanner.scan('pw = getpass.getpass("ClickHouse password for marta: ")') == []
    assert scanner.scan(f"รหัสอุปกรณ์{_r(string.digits, 17)}ไม่ใช่ความลับ แชร์ให้ทีมซัพพอร์ตได้") == []
    assert scanner.scan(f"set psksecret ENC {base64.b64encode(_RNG.randbytes(60)).decode()}") == []
    assert scanner.scan(f"DocuSign integration key (client id, not secret): {_uuid()}") == []
    assert (
        scanner.scan(
            f"ETL checkpoint token (pagination cursor, not auth): {base64.b64encode(_RNG.randbytes(32)).decode()}"
        )
        == []
    )
    assert scanner.scan("Windows Hello PIN reset for avi_iyer on analysis-vm4 — no password stored here") == []


def test_handed_over_printed_and_acknowledged_values_and_pin_settings() -> None:
    scanner = SecretScanner()
    token = "live_" + _r(_AN, 40)
    email = "From: lars@club.example\nSubject: GoCardless live access token for the Spring Marathon\n\n"
    assert _found(email + f"Hi! As asked, here it is:\n\n    {token}\n\nPlease don't forward. Cheers, Lars", token)
    secret = _r(_AN, 64)
    prompt = "PS C:\\Users\\itadmin>"
    assert _found(
        f"{prompt} $cfg = Get-Content .\\connector.json | ConvertFrom-Json\n{prompt} $cfg.aps_client_secret\n{secret}\n{prompt} Restart-Service BimSync",
        secret,
    )
    assert _found(
        f"メモ 2026-06-17: Northgate Depot の iTwin service app client secret は以下です。\n{secret}\n引き渡し後にローテーションすること。",
        secret,
    )
    chat = f"[14:58] tom: anyone have the APS client secret? integration is down\n[14:58] kenji: yep\n[14:58] kenji: {secret}\n"
    assert _found(chat, secret)
    make = "https://hook.eu1.make.com/" + _r(_AN, 32)
    assert _found(f"make_webhook_url = {make}", make)
    assert _found('door:\n  turnstile_master_pin: "71133677"\n', "71133677")
    assert _found("[15:34:04] Réka: does anyone have the turnstile master PIN?\n[16:06:09] Sam: 2731493\n", "2731493")
    # what the same shapes hold when nothing names a secret, and values that are not one
    assert (
        scanner.scan(f"Subject: build logs for the Night 10K\n\nHi! As asked, here it is:\n\n    {_r(_HEXD, 16)}\n")
        == []
    )
    assert (
        scanner.scan(f"[18:25] tom: anyone have the build id?\n[18:25] maria: yep\n[18:25] maria: {_r(_HEXD, 18)}\n")
        == []
    )
    assert scanner.scan("a: any update on the PIN reset?\nb: 4417 tickets left") == []
    assert scanner.scan("#define LED_PIN 13\nled_pin=13") == []
    mapbox = "pk." + _r(_AN, 60) + "." + _r(_AN, 22)
    assert scanner.scan(f"Course map uses the public Mapbox token {mapbox} (URL-restricted)") == []
    assert scanner.scan("PS> $p.Password\nSystem.Security.SecureString") == []
    # (dotted words are a passphrase, not a type's name)
    assert _found(
        "BORG_PASSPHRASE='Kajak.Kaffee.Tundra.Zorro.Cobalt.Lantern' borg create ::x /etc",
        "Kajak.Kaffee.Tundra.Zorro.Cobalt.Lantern",
    )


def test_key_words_in_more_languages_and_stored_forms_that_pass() -> None:
    scanner = SecretScanner()
    zoom = _r(_AN, 32)
    assert _found(f"Poznámka z hangáru (TF-KTS): klíč pro Zoom je {zoom}\nNesdílet mimo údržbu.", zoom)
    assert _found(f"Minnispunktur (2026-03-07): lykillinn fyrir Zoom á school-nas er\n{zoom}\nEkki deila.", zoom)
    wireguard = base64.b64encode(_RNG.randbytes(32)).decode()
    assert _found(f"Not (LTFM üssü): WireGuard için anahtar: {wireguard}\nÖğrencilerle paylaşmayın.", wireguard)
    assert _found(f"Nota vir die hangar-span: die sleutel vir WireGuard is {wireguard}", wireguard)
    # Nextcloud's stored hash, a badge's number beside a PIN's last digits, Ghost's public
    # content key, a digest of a key, how a saved password is kept
    salt, digest = _r(_AN, 22), _r(_AN, 43)
    assert (
        scanner.scan(f"nextcloud: oc_users.password for eoin = 3|$argon2id$v=19$m=65536,t=4,p=1${salt}${digest}") == []
    )
    assert scanner.scan("Badge 1165 issued to Óli, PIN ending in 62, access groups: hangar-5, parts-store") == []
    content = _r(_HEXD, 26)
    assert (
        scanner.scan(
            f"const api = new GhostContentAPI({{ url: 'https://blog.example', key: '{content}', version: 'v5.0' }});"
        )
        == []
    )
    assert scanner.scan(f"api_keys table stores sha256(key) only: {_r(_HEXD, 64)} (created by the CLI)") == []
    assert (
        scanner.scan(f"Saved RDP password (DPAPI-encrypted, machine-bound) for sim-pc01: password 51:b:{_r(_HEXD, 80)}")
        == []
    )
    # (a door's PIN is still one)
    assert _found("the door PIN for room 214 is 7731", "7731")


def test_webhook_ids_alarm_codes_printed_environment_and_named_ciphertext() -> None:
    scanner = SecretScanner()
    hook = "http://homeassistant.local:8123/api/webhook/" + _r(_AN, 36) + "7aZ"
    assert _found(f'ha_webhook_url = "{hook}"', hook)
    assert _found("Alarmcode Harbor View Orthodontics: 0605 - niet aan schoonmakers geven.", "0605")
    assert _found("El código de la alarma del consultorio es 71875 (entrada trasera).", "71875")
    token = _r(_HEXD, 32)
    assert _found(
        f"PS C:\\> [Environment]::GetEnvironmentVariable('TWILIO_AUTH_TOKEN', 'Machine')\n{token}\nPS C:\\>", token
    )
    fronius = _uuid()
    assert _found(f"FRONIUS_ACCESS_KEY_VALUE={fronius}", fronius)
    # a webhook a person named, ciphertext named so, a list of settings' names, a stored reference,
    # a request's id, a digest, a pharmacy's name
    assert scanner.scan("curl -X POST http://ha.local:8123/api/webhook/garage_door_opened_notify") == []
    fernet = "gAAAAAB" + _r(_AN + "-_", 100)
    assert scanner.scan(f"encrypted_password = {fernet}") == []
    assert scanner.scan("Required env vars: SRFAX_ACCESS_PWD, VEEAM_ENC_PASSWORD, M365_CLIENT_SECRET.") == []
    assert scanner.scan('network={\n    ssid="Kirkevej-3-PV"\n    psk=ext:WIFI_PSK_17\n}') == []
    assert scanner.scan(f'< www-authenticate: Bearer error="invalid_token" req={_r(_HEXD, 12)}') == []
    assert scanner.scan(f"never store the Powerwall password; store only sha256 of the serial: {_r(_HEXD, 64)}") == []
    assert scanner.scan(f"Refund for Parkside Community Pharmacy: pi_{_r(_AN, 24)} / ch_{_r(_AN, 24)}") == []
    assert scanner.scan(f"partition_key_value={_uuid()}") == []


def test_no_module_level_name_is_assigned_twice() -> None:
    # a second definition silently replaces the first for every rule that reads the name
    import ast
    import inspect

    import omegad.secretscan as module

    tree = ast.parse(inspect.getsource(module))
    names = [
        t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)
    ]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def test_a_topic_listing_names_its_values() -> None:
    scanner = SecretScanner()
    key = _r(_HEXD, 32)
    listing = "$ mosquitto_sub -h broker.lan -t 'coop/config/#' -v\ncoop/config/1837312/interval 300\n"
    assert _found(listing + f"coop/config/1837312/owm_api_key {key}\n", key)
    # (a path that only holds a secret's word names nothing)
    assert scanner.scan("see docs/api/token_refresh for details") == []


def test_deepl_transifex_dropbox_and_oracle_connect_strings() -> None:
    scanner = SecretScanner()
    deepl = f"{_uuid()}:fx"
    assert _found(f"Note: DeepL Pro auth key for Aurora Fintech is {deepl} (set up by khalid).", deepl)
    transifex = "1/" + _r(_HEXD, 40)
    assert _found(f"export TX_TOKEN='{transifex}'", transifex)
    dropbox = _r(_AN, 11) + "A" * 10 + _r(_AN + "_-", 43)
    assert _found(f"Dropbox refresh token:\n{dropbox}\n- invoices pending", dropbox)
    assert _found("CCB_DB_CONNECT=ccb_batch/Fall24$@billing-db01:1521/CCBPROD", "Fall24$")
    # public by their config's name or a note, an object path, padding
    google = "AIza" + "Sy" + _r(_AN + "_-", 33)
    assert scanner.scan(f'firebaseConfig = {{ apiKey: "{google}", projectId: "lingvista-app" }}') == []
    assert (
        scanner.scan(f"Duo integration key DI{_r(string.ascii_uppercase + string.digits, 18)} (identifier only)") == []
    )
    assert scanner.scan(f"git objects live at objects/1/{_r(_HEXD, 40)}") == []
    assert scanner.scan("padding: " + "A" * 64) == []


def test_uptimerobot_keys_named_app_passwords_and_where_a_vault_keeps_one() -> None:
    scanner = SecretScanner()
    main = "u" + _r(string.digits, 7) + "-" + _r(_HEXD, 32)
    assert _found(f'uptimerobot:\n  api_key: "{main}"\n  timeout_seconds: 30', main)
    monitor = "m" + _r(string.digits, 9) + "-" + _r(_HEXD, 24)
    assert _found(f"status page widget uses {monitor}", monitor)
    # four groups after an app password's name, wherever its sentence goes on
    app = " ".join(_r(string.ascii_lowercase, 4) for _ in range(4))
    assert _found(f"Workaround: set GMAIL_APP_PASSWORD to {app} in the Zapier step", app)
    assert scanner.scan("Password: will also need some changes after the move") == []
    # a password hash's parameters are no PIN; the entry a vault keeps a secret under is no value
    salt, digest = _r(_AN, 22), _r(_AN, 43)
    assert scanner.scan(f"argon2 hash stored for the PIN reset: $argon2id$v=19$m=65536,t=3,p=4${salt}${digest}") == []
    assert _found("door PIN=48213", "48213")
    assert scanner.scan("A senha do SFTP está no cofre (segredo sftp-lej-11), peça ao Jana.") == []
    assert scanner.scan("The SFTP password is in the vault (secret sftp-lej-11), ask Jana.") == []
    assert _found("stored in the vault (password: Tulip-Rover-88)", "Tulip-Rover-88")
    assert _found("A senha está no cofre: Tulip-Rover-88", "Tulip-Rover-88")
    # twenty capitals and digits named a token (Eventbrite's private tokens), an app password's
    # groups on a line that names one in a setting's name
    eventbrite = "FNQC2TVFVN5YC" + "TK7TN92"
    assert _found(f"export EVENTBRITE_PRIVATE_TOKEN={eventbrite}", eventbrite)
    app = " ".join(_r(string.ascii_lowercase, 4) for _ in range(4))
    line = f"The Gmail sync failed: GMAIL_APP_PASSWORD was stale. New value {app} works; rotate it after the gala."
    assert _found(line, app)


def test_irc_replies_ini_sections_new_ones_and_names_run_together() -> None:
    scanner = SecretScanner()
    # an IRC log's answer, as the bracketed chat formats' are read
    chat = "15:26 <sflores> anyone have the LucidLink filespace password? bay 3 lost it\n15:26 <emartin> {}\n15:26 <sflores> ty"
    assert _found(chat.format("X8XItt5Ma_d.HJQCFV1u"), "X8XItt5Ma_d.HJQCFV1u")
    # fifteen letters of one case and digits named a secret (Dropbox's app secrets); its app *key* is public
    secret = "0bxj5vmd7lkd" + "1gd"
    assert _found(f'{{"dropbox_app_secret": "{secret}"}}', secret)
    assert scanner.scan(f"DROPBOX_APP_KEY={secret}") == []
    # an INI section named for the secret holds it in its Default= key (Deadline's plugin settings)
    param = "[State]\nType=Enum\nDefault=Global Enabled\n\n[SYNOLOGY_ADMIN_PASSWORD]\nType=string\nLabel=DSM admin\nDefault={}"
    assert _found(param.format("Seoul2027!"), "Seoul2027!")
    assert scanner.scan("[Timeout]\nType=integer\nDefault=600") == []
    # "a new one" on a line that ends in ":" is what the subject names
    key = _r(_AN, 40)
    ticket = f"OPS-4824 - MASV API key expired\nResolution: generated a new one and stored it in the config:\n{key}\nStatus: Resolved"
    assert _found(ticket, key)
    # a capitalised name run together ends in the word that names it
    assert _found("$SCHOOLMESSENGERPW = 'h@M+*n3FfKzx9R4dYF'", "h@M+*n3FfKzx9R4dYF")
    assert _found("Nòt pou ekip IT a: nouvo modpas pou wifi la se Rosa_Tulip49. Pa bay pèsonn li.", "Rosa_Tulip49")


def test_mandrill_keys_copula_secrets_and_public_defaults_and_signatures() -> None:
    scanner = SecretScanner()
    mandrill = "md-" + _r(_AN + "_-", 22)
    assert _found(f"updated Mailchimp Transactional (Mandrill) key to {mandrill} and restarted", mandrill)
    # fifteen lower-case letters and digits after a copula, named a secret (Dropbox's app secrets)
    secret = "412rqjmm9b66" + "xtl"
    assert _found(f"Hi jordi,\nthe new Dropbox app secret is {secret}\nplease don't forward this.", secret)
    assert scanner.scan("otpauth example from RFC docs uses secret JBSWY3DPEHPK3PXP (billing test)") == []
    # SNMP's default community, and a payload's signature header, are no secrets
    assert scanner.scan("printer notes: admin password = <set on first boot>, SNMP community 'public', fw 8.90") == []
    signature = _r(_AN + "+/", 43) + "="
    assert scanner.scan(f"webhook signing key is in the vault; example header x-xero-signature: {signature}") == []


def test_perforce_tickets_joined_pairs_and_where_a_value_lives() -> None:
    scanner = SecretScanner()
    ticket = _r("0123456789ABCDEF", 32)
    for text in (
        f"  environment:\n    - P4TICKET={ticket}\n",
        f"$ cat ~/.p4tickets\nssl:p4.studio.lan:1666=perforce-admin:{ticket}\n",
        f"$ p4 -P {ticket} -u somchai changes -m 3 //depot/...",
        f"Lesson: someone pasted the Perforce ticket ({ticket}) into a public channel. Rotate it.",
        f'{{"service": "Perforce Helix", "p4ticket": "{ticket}"}}',
    ):
        assert _found(text, ticket), text
    # a digest in a Perforce listing is no ticket
    assert scanner.scan(f"p4 fstat -Ol //depot/x.bin  digest {ticket}") == []
    # an account and its password joined by " + " or " / " after a sign-in's words
    for text, password in (
        ("- Synology DSM admin: contractor + Fall2023! \n- open: UPS", "Fall2023!"),
        ("Let op: local Administrator voor Harbourside is vgadmin / August-Charlie44* - zet in de kluis", None),
        ("Value for now: CN=svc-ldap,OU=Service,DC=corp,DC=local + rocket.garnet.badger.timber5 - then", None),
        ("Catatan: kata sandi register untuk Pinecrest adalah locum1 + Fall2026* - jangan", "Fall2026*"),
    ):
        secret = password or text.split(" / " if " / " in text else " + ")[1].split()[0]
        assert _found(text, secret), text
    assert scanner.scan("We use React + TypeScript4 and Node / Express2024 for the admin panel") == []
    assert scanner.scan("Refund: pi_" + _r(_AN, 24) + " / ch_" + _r(_AN, 24) + ", customer") == []
    # a value and then the variable it is set in; a server's HTTP key by its name
    key = _r(_AN, 40)
    assert _found(f"We keep one Cloudflare API token for all clinics. It is {key} and lives in CF_API_TOKEN.", key)
    assert _found(f"NAKAMA_RUNTIME_HTTP_KEY={key[:32]}\n", key[:32])
    # a SAS URL in an XML config (its "&" written "&amp;"); a WordPress salt unquoted in an .env
    sig = _r(_AN, 43) + "%3D"
    url = f"https://acct.blob.core.windows.net/x/y.bak?sv=2022-11-02&amp;sp=r&amp;sig={sig}"
    assert _found(f'<add key="BACKUP_SAS_URL" value="{url}" />', sig)
    salt = _r(_AN + "!#%^*()-_[]{}<>~+=,.;:|", 64)
    assert _found(f"TZ=UTC\nLOGGED_IN_SALT={salt}\nLOG_LEVEL=info\n", salt)
    # "on" says where in English, "is" in Finnish and Estonian
    assert scanner.scan("the password on vetgrp-app02 was rotated yesterday") == []
    password = "Kx9!" + _r(_AN, 8)
    assert _found(f"Muistiinpano: Zen Planner admin password on {password}. Vaihda tämä!", password)


def test_references_ids_public_keys_and_refused_examples_pass() -> None:
    scanner = SecretScanner()
    uuid = "49b3516c-5ac8-4000-b66b-b75bd047d621"
    for text in (
        "$ xcrun notarytool submit build.zip --keychain-profile AC_PASSWORD\n# altool: -p @keychain:AC_PASSWORD",
        f'<param name="env.STEAM_BUILD_PASSWORD" value="credentialsJSON:{uuid}" spec="password" />',
        "withCredentials([string(credentialsId: 'dockerhub-token-1', variable: 'DOCKERHUB_TOKEN')]) {",
        "NAS_ADMIN_PASSWORD=op://Studio/NAS-31/password\nWIFI_PSK=op://Office/Wi-Fi 5G/password",
        'Get the Meraki API key with: op read "op://Clinic IT/UniFi/credential"',
        "메모: Stripe secret key는 1Password 'Studio' 금고에 있음. 환경 변수 STRIPE_SECRET_KEY 로 주입됨.",
        "PlayFab login ok: TitleId=DB777 PlayFabId=B2187561F91E1001 SessionTicketExpires=2026-12-28",
        "Guest Wi-Fi QR for the playtest: WIFI:S:Kettlebound-Guest;T:nopass;; (open network)",
        '<add key="DbPassword" value="ENC:' + _r(_AN + "+/", 64) + '" />  <!-- machine key -->',
        '{"secretName": "wifi-psk", "version": "' + _r(_HEXD, 32) + '", "enabled": true}',
        f"docs search: algolia appId=LGWW7B82QT searchOnlyApiKey={_r(_HEXD, 32)} index=wiki",
        f'GameAnalytics.Initialize(gameKey: "{_r(_HEXD, 32)}", secretKey: Get()); // game key is public',
        "RFC 7617 example: Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== -- our server uses its own",
        "Policy: passwords must be 14+ characters; 'changeme', 'password1' and the studio name are rejected.",
    ):
        assert scanner.scan(text) == [], text
    # a Wi-Fi QR code's password is still one
    password = "Xk92!" + _r(_AN, 8)
    assert _found(f"Staff Wi-Fi QR: WIFI:S:Clinic-Staff;T:WPA;P:{password};;", password)


def test_hpc_keys_uuid_cookie_keys_fields_read_from_a_store_and_more_copulas() -> None:
    scanner = SecretScanner()
    uuid = "-".join(_r(_HEXD, n) for n in (8, 4, 4, 4, 12))
    for text in (
        f"[rserver]\nsecure_cookie_key = {uuid}\n",  # RStudio Server's cookie key is a UUID
        f"$ vault kv get -field=client_secret secret/rc/orcid\n{uuid}",
        f"$ kubectl get secret alertmanager -o jsonpath='{{.data.api_key}}' | base64 -d\n{uuid}",
        f"הערה: ה-RStudio secure-cookie-key של globus-dtn1.rc.example.ac.uk הוא {uuid} - להחליף",
    ):
        assert _found(text, uuid), text
    fik = "-".join(_r(string.digits, 5) for _ in range(4))
    assert _found(f"# host_vars/ipa01.yml\nfileInstallationKey: '{fik}'\n", fik)
    assert _found(f"using MATLAB_FIK={fik}\n$ ./deploy.sh", fik)
    munge = _r(_AN + "+/", 120) + "="
    assert _found(f"[Service]\nEnvironment=MUNGE_KEY_B64={munge}\n", munge)
    secret = _r(_HEXD, 64)
    assert _found(f"c.JupyterHub.cookie_secret = bytes.fromhex('{secret}')\n", secret)
    password = "Wil" + _r(_AN, 6) + "=61"
    assert _found(f"नोट: zbx के लिए IPMI password है {password} — इसे किसी के साथ साझा न करें।", password)
    for text in (
        "Camera 8 (Docklands pass): model DS-2CD2001, serial S82BKG0LX, fw V5.7.1",
        "webhook URL is stored as SLACK_WEBHOOK_URL in Actions secrets (channel #airport-t2-ops).",
        '{"type":"response","auth":{"client_token":"hmac-sha256:' + _r(_HEXD, 64) + '"}}',
        "Docs: set admin_password to something other than 'changeme' before exposing login02.rcc.example.edu",
    ):
        assert scanner.scan(text) == [], text


def test_audit_lines_elastic_and_hec_keys_creds_and_quoted_vault_paths() -> None:
    scanner = SecretScanner()
    password = "nv4O" + _r(_AN, 10) + "^P"
    assert _found(f"_time=2026-10-12 20:04:12  field=OPENSEARCH_PASSWORD  new_value={password}  host=es-03", password)
    assert scanner.scan("sync field=mode value=fast host=es-03") == []
    # Elasticsearch's encoded API key: base64 of "id:key"
    encoded = base64.b64encode(f"{_r(_AN, 20)}:{_r(_AN, 22)}".encode()).decode()
    assert _found(f"Note: Elastic for Atlas Freight now uses {encoded} - rotated after offboarding.", encoded)
    uuid = "-".join(_r("0123456789ABCDEF", n) for n in (8, 4, 4, 4, 12))
    assert _found(f"09:12 UTC  tom.b pasted Splunk HEC creds in bridge: {uuid}\n09:13 UTC  containment done", uuid)
    wazuh = "Thunder!" + _r(string.digits, 4) + "~JF"
    assert _found(f"maya pasted Wazuh API creds in bridge: {wazuh}", wazuh)
    tines = f"https://lantern-oj7z.tines.com/webhook/{_r(_HEXD, 32)}/{_r(_HEXD, 32)}"
    assert _found(f"Current value {tines} works, verified.", tines)
    for text in (
        "Credentials for Brightwater Council Wazuh live in Bitwarden collection 'SOC / willow', not in notes.",
        "Encrypted password in Graylog config (AES, needs password_secret): " + _r(_AN + "+/", 64),
        "2026-11-11 09:01:12 INFO sync vault_path=secret/data/crm/cdk#password site=7595",
        f"[38:02] priya: what's the DocuSign integration key (client id, public)?\n[38:03] dana: {uuid.lower()}",
        "[feed]\nfirebase_web = AIza" + _r(_AN + "_-", 35) + "\n",
        "$ dealerctl show firebase_web\nAIza" + _r(_AN + "_-", 35) + "\n(exit 0)",
    ):
        assert scanner.scan(text) == [], text
