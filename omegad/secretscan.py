"""Secrets in what clients send: found before a text is embedded, logged or written, so a key
pasted into a memory never reaches the store (issue 28; docs/secrets.md).

The token formats come from `detect-secrets`' plugins (maintained upstream: cloud and SaaS
tokens, private keys, JWTs, passwords in URLs): their patterns are matched on the string
directly rather than through the package's file-scanning settings, which are process-global.
More formats are ours, written from the providers' documented prefixes and alphabets.

Notes are prose as much as source files, so the rest reads context rather than shape:
- a value beside a secret-sounding name in any syntax ("password: …", "apiSecret = …",
  "--token …", "the HMAC secret for the webhooks is …", "… <- prod API key"), where a
  password name takes any value that is not a placeholder and other names a random one;
- credentials in commands and files whose syntax says what they are: HTTP Basic headers,
  ``curl -u user:pass``, ``mysql -pPASS``, ``docker login -p``, ``openssl enc -K``, .netrc,
  .pgpass and sasl_passwd lines, Kubernetes Secret data, cookies, a URL's ``sig=``;
- the password flags of common programs as their manuals document them (``security -p``,
  ``zip -P``, ``ldapsearch -w``, ``smbclient -U user%pass``, ``net use``, ``sudo -S``), a flag
  named a secret (``--password VALUE``, ``-storepass VALUE``), Go DSNs, ``curl -u KEY:``;
- a key passed to an API (``Client("…")``, ``require("sdk")(sid, token)``, ``hmac.new(b"…")``,
  a database connection's password: ``new PDO(dsn, user, "…")``), and a chat reply to a
  question that names a secret or a login;
- one-time-password secrets: an ``otpauth://`` URI's seed, a base32 seed on a line that names
  one, lists of backup codes; a Wi-Fi QR string's ``P:``, a network's "key"; a Sentry DSN's key;
- the word for a password in other languages ("Passwort", "mot de passe", "пароль", …);
- a value alone on its line, named by the line after it ("…\nDB password, verified …") or before
  it (a label ending in ":", a cookie's name, a command that creates a key);
- keys by documented shape near a word that names them: wallet mnemonics and keypairs,
  recovery keys, VPN static keys, keys in URL paths (self-hosted chat webhooks, node RPC URLs);
- structure: a property list's `<key>`/`<string>`, a name field and a value field of one object
  (`secret_name` / `plaintext_value`), tables of names and values, `name|value` listings,
  `COPY … FROM stdin` dumps, setters (`os.Setenv("DB_PASSWORD", "…")`), a file quoted inside a
  JSON string (read unescaped), a password export's row without its header;
- what commands print: a secret store's read, a CLI's token, a generator's output, a variable
  echoed into a CI log, a password typed at a shell prompt; links that carry a sign-in, reset
  or invite token; the shown part of a half-masked value; a secret written twice, everywhere;
- network, HSM and directory tools' own syntaxes (IOS SNMPv3 users, OSPF and key-chain keys,
  tac_plus `key =`, PKCS#11 URIs' `pin-value=`, `loginHSM`, `ktpass /pass`, ftp scripts' `user`,
  Consul agent tokens and `SecretID`), `consul kv put` and CloudFormation defaults by their name;
- a unified diff's hunks read as the file they change, a JSON-quoted file as the file it quotes;
- a person's password given for an account or a device ("admin: …", "the wifi is …", "… — root
  on nas01"), when it has a password's shape (`_human_password`).
Values are judged by shape: random (entropy for its length and alphabet), or chosen by a person
(letters, digits and a symbol; a passphrase of words; an app password) when a password name says so.
Look-alikes that are not secrets (hashes, commit ids, UUIDs, base64 images, public keys,
publishable tokens, device and page tokens, placeholders and templates, documentation examples
such as "123456789:ABCdef…", code references, masked keys, ciphertext, base64 JSON that holds
nothing random, EC public points) pass: `bench/eval_secrets.py` measures both sides on generated samples.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import functools
import hashlib
import itertools
import json
import math
import re
import string
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

__all__ = ["KINDS", "Finding", "SecretScanner", "redact"]

#: detect-secrets' plugins by the kind a reply names. Its Artifactory plugin is left out: its
#: password pattern matches capitalised words ("APACHEKAFKA").
_PLUGINS: dict[str, Any] = {
    "aws_access_key": AWSKeyDetector,
    "azure_storage_key": AzureStorageKeyDetector,
    "basic_auth": BasicAuthDetector,
    "discord_token": DiscordBotTokenDetector,
    "github_token": GitHubTokenDetector,
    "gitlab_token": GitLabTokenDetector,
    "jwt": JwtTokenDetector,
    "mailchimp_key": MailchimpDetector,
    "npm_token": NpmDetector,
    "openai_key": OpenAIDetector,
    "pypi_token": PypiTokenDetector,
    "sendgrid_key": SendGridDetector,
    "slack_token": SlackDetector,
    "square_oauth": SquareOAuthDetector,
    "stripe_key": StripeDetector,
    "telegram_token": TelegramBotTokenDetector,
    "twilio_key": TwilioKeyDetector,
}

#: A substring that every match of a plugin's patterns holds, tested before they run.
_PLUGIN_LITERALS: dict[str, tuple[str, ...]] = {
    "aws_access_key": ("A3T", "ABIA", "ACCA", "AKIA", "ASIA", "aws"),
    "azure_storage_key": ("AccountKey=",),
    "basic_auth": ("://",),
    "discord_token": (".",),
    "github_token": ("_",),
    "gitlab_token": ("gl", "GR1348941"),
    "jwt": ("eyJ",),
    "mailchimp_key": ("-us",),
    "npm_token": ("_authToken",),
    "openai_key": ("T3BlbkFJ",),
    "pypi_token": ("pypi-",),
    "sendgrid_key": ("SG.",),
    "slack_token": ("xox", "hooks.slack.com"),
    "square_oauth": ("sq0csp-",),
    "stripe_key": ("k_live_",),
    "telegram_token": (":",),
    "twilio_key": ("AC", "SK"),
}

#: Token formats detect-secrets 1.5.0 does not know, by the kind a reply names: the prefixes,
#: lengths and alphabets the providers document. A prefix alone is not enough: each needs the
#: body its provider issues, so "ghp_…" in prose or "hf_xxx" pass.
_TOKENS: dict[str, re.Pattern[str]] = {
    "anthropic_key": re.compile(r"\bsk-ant-[a-z0-9]+-[A-Za-z0-9_-]{40,}"),
    "openai_key": re.compile(r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}"),
    "google_api_key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),
    "google_oauth_secret": re.compile(r"\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])"),
    "github_token": re.compile(r"\bgithub_pat_[A-Za-z0-9_]{50,}"),
    "gitlab_token": re.compile(
        r"\bgl(?:pat|rt|dt|ptt|cbt|imt|ft|soat|oas|agent|ffct|wt)-[A-Za-z0-9_-]{20,64}(?![A-Za-z0-9_-])"
    ),
    "npm_token": re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"),
    "slack_token": re.compile(r"\bxapp-\d-[A-Z0-9]{8,}-\d{8,}-[a-f0-9]{32,}\b"),
    "stripe_key": re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,250}\b|\bwhsec_[A-Za-z0-9+/=]{24,}"),
    "square_token": re.compile(r"\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}(?![A-Za-z0-9_-])|\bEAAA[A-Za-z0-9_-]{56,64}\b"),
    "age_secret_key": re.compile(r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b"),
    "databricks_token": re.compile(r"(?:\b|(?<=\\[nt]))dapi[a-f0-9]{32}(?:-\d)?\b"),
    "heroku_key": re.compile(r"\bHRKU-[A-Za-z0-9_-]{60}(?![A-Za-z0-9_-])"),
    # (Vault's legacy service tokens: "s." and 24 base62 characters, mixed as issued)
    "vault_token": re.compile(
        r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}"
        r"|(?<![\w.-])s\.(?=[A-Za-z0-9]{0,23}[A-Z])(?=[A-Za-z0-9]{0,23}[a-z])(?=[A-Za-z0-9]{0,23}\d)[A-Za-z0-9]{24}(?![\w.-])"
    ),
    "grafana_token": re.compile(r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|\bglc_[A-Za-z0-9+/]{32,}={0,2}"),
    "linear_key": re.compile(r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b"),
    "notion_token": re.compile(r"\bntn_[A-Za-z0-9]{40,50}\b|\bsecret_[A-Za-z0-9]{43}\b"),
    "doppler_token": re.compile(r"\bdp\.(?:st|pt|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}\b"),
    "pulumi_token": re.compile(r"\bpul-[a-f0-9]{40}\b"),
    "postman_key": re.compile(r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"),
    # (not the browser agent's NRJS- key: every page that loads the agent shows it)
    "newrelic_key": re.compile(r"\bNR(?:AK|II|RA)-[A-Za-z0-9]{27,42}\b|\b[a-f0-9]{36}NRAL\b"),
    "mapbox_token": re.compile(r"\bsk\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}"),
    "shopify_token": re.compile(r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"),
    "replicate_token": re.compile(r"\br8_[A-Za-z0-9]{37}\b"),
    "groq_key": re.compile(r"\bgsk_[A-Za-z0-9]{52}\b"),
    "huggingface_token": re.compile(r"\b(?:hf|api_org)_[A-Za-z0-9]{34}\b"),
    "openrouter_key": re.compile(r"\bsk-or-v1-[a-f0-9]{64}\b"),
    "posthog_key": re.compile(r"\bphx_[A-Za-z0-9]{39,48}\b"),
    # feature-flag services' server-side keys: LaunchDarkly's SDK key and access token (a UUID
    # after "sdk-" or "api-"), Statsig's server secret, Unleash's "project:environment.hash",
    # Flagsmith's server-side environment key
    "feature_flag_key": re.compile(
        r"\b(?:sdk|api)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
        r"|\bsecret-[A-Za-z0-9]{32,64}\b"
        r"|(?<![\w*:.-])(?:\*|[a-z0-9_-]{1,60}):[a-z0-9_-]{1,60}\.[a-f0-9]{32,64}\b"
        r"|\bser\.[A-Za-z0-9]{20,30}\b"
    ),
    "terraform_token": re.compile(r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_-]{60,70}"),
    "mailgun_key": re.compile(r"\bkey-[a-z0-9]{32}\b|\b[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}\b"),
    "atlassian_token": re.compile(r"\bATATT3[A-Za-z0-9_=-]{150,250}"),
    "digitalocean_token": re.compile(r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    "docker_token": re.compile(r"\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}"),
    "buildkite_token": re.compile(r"\bbku[at]_[a-f0-9]{40}\b"),
    "rubygems_key": re.compile(r"\brubygems_[a-f0-9]{48}\b"),
    "nuget_key": re.compile(r"\boy2[a-z0-9]{43}\b"),
    "sentry_token": re.compile(r"\bsntrys_eyJ[A-Za-z0-9+/=_-]{60,}|\bsntry[ua]_[a-f0-9]{64}\b"),
    "supabase_key": re.compile(r"\bsb_secret_[A-Za-z0-9_-]{28,}"),
    "artifactory_key": re.compile(r"\bAKCp[A-Za-z0-9]{69}\b"),
    "airtable_token": re.compile(r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b"),
    "figma_token": re.compile(r"\bfig[dou]_[A-Za-z0-9_-]{40,}"),
    # Microsoft Entra client secrets: three characters, a digit, "Q~", then 31 to 34 more
    "azure_client_secret": re.compile(
        r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-])"
    ),
    "crates_token": re.compile(r"\bcio[A-Za-z0-9]{32}\b"),
    "supabase_token": re.compile(r"\bsbp_[a-f0-9]{40}\b"),
    "trello_token": re.compile(r"\bATTA[a-f0-9]{64}[A-F0-9]{8}\b"),
    "brevo_key": re.compile(r"\bx(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}\b"),
    # Klaviyo's private API keys ("pk_" and 34 hex; Stripe's publishable keys say pk_live_/pk_test_)
    "klaviyo_key": re.compile(r"\bpk_[a-f0-9]{34}\b"),
    "resend_key": re.compile(r"\bre_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}\b"),
    # WooCommerce's REST consumer secret ("cs_" and 40 hex; its "ck_" consumer key goes with it)
    "woocommerce_secret": re.compile(r"\bcs_[a-f0-9]{40}\b"),
    # HubSpot's private-app tokens (a region, then a UUID), Asana's personal access tokens
    "hubspot_token": re.compile(r"\bpat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
    "asana_token": re.compile(r"(?<![\w/])[12]/\d{13,19}(?:/\d{13,19})?:[a-f0-9]{32}\b"),
    "perplexity_key": re.compile(r"\bpplx-[A-Za-z0-9]{48}\b"),
    # Cloudflare Turnstile's secret keys (its site keys, public, are the same prefix and 24 long)
    "turnstile_secret": re.compile(r"\b0x4AAAAAAAA(?P<body>[A-Za-z0-9_-]{20,40})(?![A-Za-z0-9_-])"),
    # Pterodactyl's client and application API keys
    "pterodactyl_key": re.compile(r"\bptl[ac]_[A-Za-z0-9]{43}\b"),
    "render_key": re.compile(r"\brnd_[A-Za-z0-9]{32}\b"),
    "sonarqube_token": re.compile(r"\bsq[pua]_[a-f0-9]{40}\b"),
    # Twitch's chat (IRC) password: "oauth:" and the 30-character access token
    "twitch_token": re.compile(r"(?<![\w-])oauth:[a-z0-9]{30}\b"),
    # Twitch's stream keys: "live_", the channel's number, then the secret
    "twitch_stream_key": re.compile(r"\blive_\d{6,12}_[A-Za-z0-9]{24,40}\b"),
    "paddle_key": re.compile(r"\bpdl_(?:live|sdbx)_apikey_[a-z0-9]{26}_[A-Za-z0-9]{22}_[A-Za-z0-9]{3}\b"),
    # Google's OAuth refresh tokens ("1//0…", as `firebase login:ci` prints them)
    "google_refresh_token": re.compile(r"(?<![\w/])1//0[A-Za-z0-9_-]{40,}"),
    # a Bitcoin private key in wallet import format: base58, "5" then 50 more, or "K"/"L" then 51
    "wif_private_key": re.compile(
        r"(?<![A-Za-z0-9])(?:5[HJK][1-9A-HJ-NP-Za-km-z]{49}|[KL][1-9A-HJ-NP-Za-km-z]{51})(?![A-Za-z0-9])"
    ),
    # Fly.io's tokens (`fly tokens create`, `flyctl auth token`): "FlyV1 fm2_…" macaroons, "fo1_…"
    "fly_token": re.compile(
        r"\bfm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3}(?:,fm[12][ar]?_[A-Za-z0-9+/]{40,}={0,3})*|\bfo1_[\w-]{43}\b"
    ),
    # Google's OAuth access tokens ("ya29." then the token, as `gcloud auth print-access-token` prints it)
    "google_access_token": re.compile(r"\bya29\.[A-Za-z0-9_-]{30,}"),
    # k3s's join token: "K10", the cluster CA's sha256, "::", a user and its password
    "k3s_token": re.compile(r"\bK10[a-f0-9]{64}::[\w.-]{1,64}:[A-Za-z0-9]{16,64}\b"),
    # AWS STS session tokens: base64 of a fixed header ("IQoJb3JpZ2luX2Vj", older "FwoGZXIvYXdz")
    "aws_session_token": re.compile(r"(?<![A-Za-z0-9+/])(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9+/]{80,}={0,2}"),
    # documented prefixes (as gitleaks lists them): 1Password service-account tokens and account
    # secret keys, Amazon Bedrock keys, Dynatrace, EasyPost, Frame.io, Infracost, PlanetScale,
    # Prefect, ReadMe, Scalingo, OpenShift, Clojars, Adobe, Cloudflare origin CA, Alibaba, Slack's
    # config tokens, Octopus Deploy, MaxMind licence keys, Flutterwave, Artifactory reference tokens
    "vendor_token": re.compile(
        r"\bops_eyJ[A-Za-z0-9+/]{250,}={0,3}|\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b"
        r"|\bABSK[A-Za-z0-9+/]{109,269}={0,2}|\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b|\bEZ[AT]K[A-Za-z0-9]{54}\b"
        r"|\bfio-u-[A-Za-z0-9_=-]{64}|\bico-[A-Za-z0-9]{32}\b|\bpscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}|\bpnu_[A-Za-z0-9]{36}\b"
        r"|\brdme_[a-z0-9]{70}\b|\btk-us-[\w-]{48}\b|(?<![\w~])sha256~[\w-]{43}(?![\w-])|\bCLOJARS_[A-Za-z0-9]{60}\b"
        r"|\bp8e-[A-Za-z0-9]{32}\b|\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b|\bLTAI[A-Za-z0-9]{20}\b|\bxoxe(?:\.xox[bp])?-\d-[A-Z0-9]{140,170}\b"
        r"|\bAPI-[A-Z0-9]{26}\b|\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b|\bFLWSECK(?:_TEST)?-[a-h0-9]{32}-X\b|\bcmVmd(?:[A-Za-z0-9]{59}|Gtu[A-Za-z0-9]{56,90})\b"
        r"|\bsm_(?:aat|pat|sat)_[A-Za-z0-9]{16}\b|\beyJrIjoi[A-Za-z0-9]{70,400}={0,3}"
        # CircleCI personal tokens, Bitbucket app passwords, Braintree (PayPal) access tokens, and
        # Firebase Cloud Messaging's legacy server keys ("AAAA" and the project's number encoded,
        # ":APA91b", the key; a device's registration token has no "AAAA" part)
        r"|\bCCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}\b|\bATBB[A-Za-z0-9_=.-]{32,64}(?![\w=.-])"
        r"|\baccess_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}\b"
        r"|(?<![\w-])AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{130,140}(?![\w-])"
    ),
    # a live or test secret key in the shape Stripe made common ("shippo_live_…", "duffel_test_…",
    # "rzp_live_…"): a short vendor prefix, the mode, a random body. ("pk_" keys are publishable.)
    "live_key": re.compile(r"\b(?!pk_)[a-z][a-z0-9]{1,11}_(?:live|test|prod|sandbox)_[A-Za-z0-9]{20,128}\b"),
    # "sk-" then a random body: the secret-key prefix of OpenAI's first keys and of the APIs that
    # copied its format (DeepSeek, Moonshot, …)
    "sk_key": re.compile(r"(?<![\w-])sk-[A-Za-z0-9]{32,128}(?![\w-])"),
    # X (Twitter) app-only bearer tokens: a run of "A"s, the app id and "%3D" then the secret
    # (gitleaks' twitter-bearer-token; the run is the format's, not a placeholder's)
    "twitter_token": re.compile(
        r"(?<![A-Za-z0-9%])A{20,24}[A-Za-z0-9%]{4,120}?(?:%3D|=)(?P<body>[A-Za-z0-9]{30,80})(?![A-Za-z0-9%])"
    ),
    # Azure DevOps PATs in Microsoft's identifiable format: 52 random characters, the "JQQJ9"
    # signature, fixed fields, "AZDO" and a checksum
    "azure_devops_token": re.compile(
        r"(?<![A-Za-z0-9])(?P<body>[A-Za-z0-9]{52})JQQJ9[A-Za-z0-9]{1,20}?AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9])"
    ),
    # LangSmith API keys (personal "pt" and service "sk"), as trufflehog's detector reads them
    "langsmith_key": re.compile(r"\blsv2_(?:sk|pt)_[a-f0-9]{32}_[a-f0-9]{10}\b"),
    # Dropbox short-lived access tokens ("sl." or "sl.u."), gitleaks' dropbox-short-lived-api-token
    "dropbox_token": re.compile(r"(?<![\w.-])sl\.(?:[A-Za-z]\.)?[A-Za-z0-9_=-]{120,}"),
    # Mercado Pago access tokens (trufflehog's mercadopago detector); its public keys are a UUID
    # after the same prefix and stay out
    "mercadopago_token": re.compile(r"\b(?:APP_USR|TEST)-\d{16}-\d{6}-[a-f0-9]{32}-\d{6,12}\b"),
    # NATS nkey seeds: base32, "S" then the key type's letter (public keys have no "S")
    "nats_seed": re.compile(r"(?<![A-Z2-7])S[UAONCXP][A-Z2-7]{56}(?![A-Za-z0-9])"),
    # Salesforce session ids / access tokens: the 15-character org id ("00D…"), "!", the token
    "salesforce_token": re.compile(r"(?<![\w.])00D[A-Za-z0-9]{12}![A-Za-z0-9._]{80,}"),
    # Xendit secret keys (its "xnd_public_…" keys are publishable)
    "xendit_key": re.compile(r"\bxnd_(?:production|development)_[A-Za-z0-9+/]{40,}={0,2}"),
    # Porkbun's secret API key ("sk1_" and 64 hex, as its API docs issue it; "pk1_" names the key)
    "porkbun_key": re.compile(r"\bsk1_[a-f0-9]{64}\b"),
    # a Nostr private key in NIP-19's bech32 form ("nsec1"; "npub1" is the public key)
    "nostr_key": re.compile(r"\bnsec1[02-9ac-hj-np-z]{58}\b"),
    # a Cloudflare Tunnel token: base64 of {"a": account, "t": tunnel id, "s": the tunnel secret}
    "cloudflare_tunnel_token": re.compile(r"(?<![\w.+/-])eyJhIjoi[A-Za-z0-9+/]{100,400}={0,2}"),
    # Pinecone API keys ("pcsk_", a key id, "_", the secret), Netlify personal access tokens
    # ("nfp_"), Tailscale keys ("tskey-auth-…", "tskey-api-…": an id, "CNTRL-" or "-", the secret),
    # Meta (Facebook, Instagram, WhatsApp) Graph API access tokens ("EAA" and 100 or more; gitleaks'
    # facebook-access-token; Square's "EAAA" tokens are 60 characters)
    "pinecone_key": re.compile(r"\bpcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{40,100}\b"),
    "netlify_token": re.compile(r"\bnfp_[A-Za-z0-9]{36,44}\b"),
    # DeepL's free-plan keys (a UUID, then ":fx"), Transifex's API tokens ("1/" and 40 hex),
    # Dropbox's long-lived and refresh tokens (gitleaks' dropbox-long-lived-api-token: ten "A"s after 11)
    "deepl_key": re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx\b"),
    "transifex_token": re.compile(r"(?<![\w/.-])1/[0-9a-f]{40}(?![\w/])"),
    "dropbox_long_token": re.compile(r"(?<![\w-])[A-Za-z0-9]{11}AAAAAAAAAA(?P<body>[A-Za-z0-9_=-]{43})"),
    "tailscale_key": re.compile(r"\btskey-(?:auth|api|client|webhook|scim)-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,64}\b"),
    # UptimeRobot's API keys: "u" (the account's main key), "ur" (read-only) or "m" (one monitor's),
    # the account's or monitor's number, "-", then hex
    "uptimerobot_key": re.compile(r"(?<![\w./-])(?:ur?|m)\d{5,10}-[0-9a-f]{24,40}(?![\w-])"),
    # Mailchimp Transactional's (Mandrill's) API keys: "md-" and 22 URL-safe characters
    "mandrill_key": re.compile(r"(?<![\w-])md-[A-Za-z0-9_-]{22}(?![\w-])"),
    "meta_token": re.compile(r"\bEAA[A-Za-z0-9]{100,400}\b"),
    # incoming-webhook URLs whose path is the credential (Slack's are a detect-secrets plugin);
    # also shoutrrr's "discord://token@webhook-id" form of Discord's webhook URL
    "webhook_url": re.compile(
        r"\bhttps://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{15,22}/[A-Za-z0-9_-]{50,100}"
        r"|\bdiscord://[A-Za-z0-9_-]{60,80}@\d{15,22}\b"
        r"|\bhttps://[a-z0-9-]{1,63}\.webhook\.office\.com/webhookb2/[0-9a-f-]{36}@[0-9a-f-]{36}/IncomingWebhook/"
        r"[0-9a-f]{32}(?:/[0-9a-f-]{36}(?:/[A-Za-z0-9_-]{20,80})?)?"
        r"|\bhttps://chat\.googleapis\.com/v1/spaces/[\w-]{1,40}/messages\?key=[\w-]{20,60}&token=[\w%=-]{20,100}"
        r"|\bhttps://hooks\.zapier\.com/hooks/catch/\d{3,12}/[a-z0-9]{5,12}/?"
        r"|\bhttps://hook\.(?:eu|us)\d\.make\.com/[A-Za-z0-9]{32}\b"  # (Make's scenario webhooks)
        r"|\bhttps://[\w-]{1,63}\.tines\.com/webhook/[0-9a-f]{32}/[0-9a-f]{32}\b"  # (Tines: a path, then its secret)
        # Home Assistant's webhook triggers: a generated id (hex, or random letters and digits)
        r"|\bhttps?://[\w.-]{1,100}(?::\d{2,5})?/api/webhook/"
        r"(?:[0-9a-f]{32,128}|(?=[\w-]{0,80}\d)(?=[\w-]{0,80}[A-Z])(?=[\w-]{0,80}[a-z])[A-Za-z0-9_-]{24,128})\b"
    ),
}
#: Formats whose prefix is common enough that the body must also look random.
_RANDOM_BODY = frozenset(["live_key", "sk_key"])
#: A substring each format's tokens hold, tested before its pattern runs.
_TOKEN_LITERALS: dict[str, tuple[str, ...]] = {
    "anthropic_key": ("sk-ant-",),
    "openai_key": ("sk-",),
    "google_api_key": ("AIza",),
    "google_oauth_secret": ("GOCSPX-",),
    "github_token": ("github_pat_",),
    "gitlab_token": ("gl",),
    "npm_token": ("npm_",),
    "slack_token": ("xapp-",),
    "stripe_key": ("k_live_", "k_test_", "whsec_"),
    "square_token": ("sq0", "EAAA"),
    "age_secret_key": ("AGE-SECRET-KEY-1",),
    "databricks_token": ("dapi",),
    "heroku_key": ("HRKU-",),
    "vault_token": ("hvs.", "hvb.", "hvr.", "s."),
    "grafana_token": ("glsa_", "glc_"),
    "linear_key": ("lin_",),
    "notion_token": ("ntn_", "secret_"),
    "doppler_token": ("dp.",),
    "pulumi_token": ("pul-",),
    "postman_key": ("PMAK-",),
    "newrelic_key": ("NR",),
    "mapbox_token": ("sk.eyJ",),
    "shopify_token": ("shp",),
    "replicate_token": ("r8_",),
    "groq_key": ("gsk_",),
    "huggingface_token": ("hf_", "api_org_"),
    "openrouter_key": ("sk-or-v1-",),
    "posthog_key": ("phx_",),
    "feature_flag_key": ("sdk-", "api-", "secret-", ":", "ser."),
    "terraform_token": (".atlasv1.",),
    "mailgun_key": ("key-", "-"),
    "atlassian_token": ("ATATT3",),
    "digitalocean_token": ("_v1_",),
    "docker_token": ("dckr_",),
    "buildkite_token": ("bku",),
    "rubygems_key": ("rubygems_",),
    "nuget_key": ("oy2",),
    "sentry_token": ("sntry",),
    "supabase_key": ("sb_secret_",),
    "artifactory_key": ("AKCp",),
    "airtable_token": ("pat",),
    "figma_token": ("fig",),
    "azure_client_secret": ("Q~",),
    "crates_token": ("cio",),
    "supabase_token": ("sbp_",),
    "trello_token": ("ATTA",),
    "brevo_key": ("xkeysib-", "xsmtpsib-"),
    "klaviyo_key": ("pk_",),
    "resend_key": ("re_",),
    "woocommerce_secret": ("cs_",),
    "hubspot_token": ("pat-",),
    "asana_token": (":",),
    "perplexity_key": ("pplx-",),
    "turnstile_secret": ("0x4AAAAAAAA",),
    "pterodactyl_key": ("ptlc_", "ptla_"),
    "render_key": ("rnd_",),
    "sonarqube_token": ("sq",),
    "twitch_token": ("oauth:",),
    "twitch_stream_key": ("live_",),
    "paddle_key": ("pdl_",),
    "google_refresh_token": ("1//0",),
    "wif_private_key": ("5", "K", "L"),
    "fly_token": ("fm1", "fm2", "fo1_"),
    "google_access_token": ("ya29.",),
    "k3s_token": ("K10",),
    "aws_session_token": ("IQoJb3JpZ2luX2Vj", "FwoGZXIvYXdz"),
    "vendor_token": (
        *("ops_eyJ", "A3-", "ABSK", "dt0c01.", "EZAK", "EZTK", "fio-u-", "ico-", "pscale_", "pnu_", "rdme_"),
        *("tk-us-", "sha256~", "CLOJARS_", "p8e-", "v1.0-", "LTAI", "xoxe", "API-", "_mmk", "FLWSECK", "cmVmd"),
        *("sm_", "eyJrIjoi", "CCIPAT_", "ATBB", "access_token$", ":APA91b"),
    ),
    "live_key": ("_live_", "_test_", "_prod_", "_sandbox_"),
    "sk_key": ("sk-",),
    "porkbun_key": ("sk1_",),
    "nostr_key": ("nsec1",),
    "cloudflare_tunnel_token": ("eyJhIjoi",),
    "webhook_url": (
        *("discord", ".webhook.office.com/", "chat.googleapis.com", "hooks.zapier.com", ".make.com/", ".tines.com/"),
        "/api/webhook/",
    ),
    "twitter_token": ("AAAAAAAAAAAAAAAAAAAA",),
    "azure_devops_token": ("JQQJ9",),
    "langsmith_key": ("lsv2_",),
    "dropbox_token": ("sl.",),
    "mercadopago_token": ("APP_USR-", "TEST-"),
    "nats_seed": ("SU", "SA", "SO", "SN", "SC", "SX", "SP"),
    "salesforce_token": ("00D",),
    "xendit_key": ("xnd_",),
    "pinecone_key": ("pcsk_",),
    "netlify_token": ("nfp_",),
    "deepl_key": (":fx",),
    "transifex_token": ("1/",),
    "dropbox_long_token": ("AAAAAAAAAA",),
    "tailscale_key": ("tskey-",),
    "uptimerobot_key": ("-",),
    "mandrill_key": ("md-",),
    "meta_token": ("EAA",),
}
KINDS = (
    *_PLUGINS,
    *(k for k in _TOKENS if k not in _PLUGINS),
    "private_key",
    "password",
    "high_entropy",
    "k8s_secret",
    "otp_secret",
    "sentry_dsn",
    "kubernetes_token",
    "crypto_key",
    "recovery_key",
    "vpn_account",
    "aws_secret_key",
)

_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)"
    r"|PuTTY-User-Key-File-\d:.*?(?:Private-MAC: \S+|\Z)",
    re.S,
)
#: A licence file's block ("----- BEGIN LICENSE -----" … "----- END LICENSE -----", Sublime's and
#: others'): the whole block is the licence.
_LICENSE_BLOCK = re.compile(
    r"-{3,}[ \t]*BEGIN LICEN[CS]E[ \t]*-{3,}\n[^\n]{0,200}(?:\n[^\n-][^\n]{0,200}){0,40}\n-{3,}[ \t]*END LICEN[CS]E"
)
#: A product key of five groups of five (Windows and Office, VMware): letters and digits mixed.
_PRODUCT_KEY = re.compile(r"(?<![\w-])[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}(?![\w-])")
#: A licence key's shape where a name says it is one: upper-case letters and digits, grouped or not.
_LICENCE_NOTE = re.compile(
    r"(?i)(?<![\w/.-])(?:licen[cs]e(?:[ \t]+key)?[ \t]*:|licen[cs]e[ \t]+key\b|product[ \t]+key\b)"
)
_LICENSE_SHAPE = re.compile(r"^(?=[^a-z]*\d)(?=[^a-z]*[A-Z])[A-Z0-9]{4,8}(?:-?[A-Z0-9]{4,8}){1,7}$")
_KEY_BODY = re.compile(r"[A-Za-z0-9+/=]{40,}")
_JWT_TAIL = re.compile(r"[A-Za-z0-9_.+/=-]*")

# -- names -------------------------------------------------------------------------------

#: Where a secret-sounding name may be: a word holding one of these (case-insensitive). The
#: name around it is then read whole ("DB_PASSWORD", "apiSecret", "X-Api-Key").
_NAME_HINT = re.compile(
    r"(?i)(?=[pstcakswmhljşпパ密비uwvrnκσסרكرپपপлகร口암eg])(?:p(?:ass|wd|(?:w|at|sk)(?:\b|(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])))|secret|token|credential|auth|key[ \t]+content\b|key"
    r"|cookie|sess|salt|code(?:(?<=recoverycode)|(?<=recovery[ _-]code)|(?<=backupcode)|(?<=backup[ _-]code))"
    r"|veracrypt|truecrypt|(?<![a-z])luks|keepass"
    r"|(?<![a-z])(?:wi-?fi|wlan|vpn|rcon|vnc|admin(?:istrator)?|root|login|superuser|creds|hec)(?![a-z])"
    r"|kennwort|contrase[ñn]a|mot de passe|phrase[ \t]+de[ \t]+passe|senha|wachtwoord|wachtzin|has[łl][oa]|パスフレーズ|l[öo]sen(?:ord|fras)|salasana|adgangskode|heslo"
    r"|jelsz[óo]|[şs]ifre|парол[ьяюе]|パスワード|密码|密碼|口令|비밀번호|비번|암호(?!화)|schl[üu]ssel"
    r"|(?<![a-z])(?:klíč|kľúč|klucz|kulcs|kunci|lykill(?:inn)?|lykilinn|sleutel|anahtar[ıi]?|avain|nyckeln?|nøkkel(?:en)?"
    r"|nøglen?|chave|chiave|cheiea?|raktas|võti|atslēga|allwedd|eochair|gakoa|clau)(?![a-z])"
    r"|m[ậa]t[ \t_-]*kh[ẩa]u|(?<![a-z])kh(?:óa|oá)(?![a-z])|รหัส(?![\u0e00-\u0e7f])|kata[ \t_-]*sandi|code[ \t]+d'acc[èe]s|(?<![a-z])clave(?![a-z])|(?<![a-z])cl[ée](?![a-z])"
    r"|mnemonic|(?<![a-z])wif(?![a-z])|unseal|community|hmac(?![a-z])|(?<![a-z])pin(?![a-z])"
    # (more languages: Romanian, Hungarian, Greek, Hebrew, Thai, Arabic, Persian, Hindi, Bengali,
    # Urdu, Croatian and Serbian, Bulgarian, Lithuanian, Estonian, Icelandic, Malay, Swahili, Tamil)
    r"|(?<![a-z])parol[aăe](?:s[ıi])?(?![a-z])|(?<![a-z])parool|jelszav\w{0,4}|κωδικ[όο]ς?[ \t]+πρόσβασης|συνθηματικ[όο]"
    r"|סיסמ[הא]|รหัสผ่าน|كلمة[ \t]+(?:المرور|السر)|رمز[ \t]+عبور|पासवर्ड|পাসওয়ার্ড|پاس[ \t]*ورڈ|lozink[aeu]"
    r"|лозинк[аеу]|парола|slaptažod\w{0,4}|lykilorð|kata[ \t]+laluan|nenosiri|கடவுச்சொல்)"
)
#: Notes are not all in English: the word for a password in other languages, and for a key
#: (a key is a password only where a network's is meant: "WLAN-Schlüssel").
_FOREIGN_NAMES = {
    **dict.fromkeys(["contraseña", "mot de passe", "hasło", "hasła", "lösenord", "jelszó", "şifre"], "password"),
    # (a passphrase: French, Dutch, Japanese)
    **dict.fromkeys(["phrase de passe", "wachtzin", "パスフレーズ"], "password"),
    **dict.fromkeys(["пароль", "пароля", "паролю", "пароле", "パスワード", "密码", "密碼", "비밀번호"], "password"),
    # (a pass phrase: Chinese "口令", Korean "암호")
    **dict.fromkeys(["口令", "암호", "비번", "lösenfras", "losenfras"], "password"),
    **dict.fromkeys(["mật khẩu", "mat khau", "kata sandi", "code d'accès", "code d'acces", "clave"], "password"),
    **dict.fromkeys(["schlüssel", "schlussel", "clé", "cle"], "key"),
    # (Vietnamese "khóa", Thai "รหัส": a key or a code, so a random value)
    **dict.fromkeys(["khóa", "khoá", "รหัส"], "key"),
    # (Czech, Slovak, Polish, Hungarian, Malay, Icelandic, Dutch and Afrikaans, Turkish, Finnish,
    # Swedish, Norwegian, Danish, Portuguese, Italian, Romanian, Lithuanian, Estonian, Latvian,
    # Welsh, Irish, Basque, Catalan)
    **dict.fromkeys(
        ["klíč", "kľúč", "klucz", "kulcs", "kunci", "lykill", "lykillinn", "lykilinn", "sleutel", "anahtar"],
        "key",
    ),
    **dict.fromkeys(["anahtarı", "anahtari", "avain", "nyckel", "nyckeln", "nøkkel", "nøkkelen", "nøgle"], "key"),
    **dict.fromkeys(["nøglen", "chave", "chiave", "cheie", "cheiea", "raktas", "võti", "atslēga"], "key"),
    **dict.fromkeys(["allwedd", "eochair", "gakoa", "clau"], "key"),
}
_FOREIGN_PASSWORD = re.compile(
    r"(?i)parol[aăe](?:s[ıi])?|parool|jelszav\w{0,4}|κωδικ[όο]ς?[ \t]+πρόσβασης|συνθηματικ[όο]|סיסמ[הא]|รหัสผ่าน"
    r"|كلمة[ \t]+(?:المرور|السر)|رمز[ \t]+عبور|पासवर्ड|পাসওয়ার্ড|پاس[ \t]*ورڈ|lozink[aeu]|лозинк[аеу]|парола"
    r"|slaptažod\w{0,4}|lykilorð|kata[ \t]+laluan|nenosiri|கடவுச்சொல்"
)


@functools.lru_cache(maxsize=256)
def _foreign(word: str) -> str | None:
    """What the word for a secret in another language names ("password", "key"), else None."""
    kind = _FOREIGN_NAMES.get(word.lower())
    return kind if kind is not None or _FOREIGN_PASSWORD.fullmatch(word) is None else "password"


#: Where an SNMP community is meant, the word names a password ("snmp … community: X", "RW community").
_SNMP_WORD = re.compile(r"(?i)snmp|\b(?:r[ow]|read-only|read-write)[ \t]+community\b")
#: Words for a wireless network: its "key" is the network's password.
_WIFI_WORD = re.compile(r"(?i)(?<![A-Za-z])(?:wi-?fi|wlan|ssid|wpa\d?|wireless|hotspot)(?![A-Za-z])")
_WIFI_NEEDS = ("wifi", "wi-fi", "wlan", "ssid", "wpa", "wireless", "hotspot")
_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-$@")
#: A name of words: "checkout.cloudflareApiToken" is a name however random it looks.
_COUNT_BEFORE = re.compile(r"(?<![\w./:-])\d[\d,.]*[kKmM]?[ \t]+$")
_ADMIN_PAGE = re.compile(r"(?i)\badmin[ \t]+page[ \t]+$")
_BEFORE = re.compile(r"([A-Za-z]+)(?:-\d{1,4})?[ \t]+$")  # ("AES-256 key": "aes")
#: (a word may end in a digit or two: "AUTH0_CLIENT_SECRET", "S3_KEY", "OAUTH2_TOKEN")
_WORDY = re.compile(r"^[A-Za-z]+\d{0,2}(?:[_.-]+[A-Za-z]+\d{0,2})*$")
_CAMEL = re.compile(r"OAuth|[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
#: Name parts that make a value a password (any value that is not a placeholder counts).
_PASSWORD_PART = re.compile(
    r"^(?:\w*passw(?:or)?d\w*|pass|passwd|pwd|pw|psk\w*|\w*passphrase|requirepass|\w+pass|bindpw|rootpw|authtok"
    # (a disk's or a password database's only credential is its passphrase)
    r"|veracrypt|truecrypt|luks\d?|keepass\w*"
    r"|passwort|kennwort|wachtwoord|wachtzin|senha|contrasena|hesl\w*|haslo|losenord\w*|salasana|passord|adgangskode|jelszo|sifre\w*|clave)$"
)
#: Tools whose only credential is a passphrase: "the VeraCrypt container … — w w w w —".
_CRYPT_TOOL = re.compile(r"veracrypt|truecrypt|keepass")
#: An account's recovery or backup code (a one-time password) by its name: "MFA_RECOVERY_CODE".
_RECOVERY_CODE = re.compile(r"(?:recovery|backup|scratch)codes?$")
#: The qualifiers that make a key a credential in a name written as one word ("Pineconeapikey").
_JOINED_KEY_QUALIFIERS = (
    "api",
    "app",
    "admin",
    "private",
    "secret",
    "access",
    "storage",
    "encryption",
    "signing",
    "master",
)
_JOINED_PASSWORD = re.compile(r"motdepasse|katasandi|matkhau|katalaluan|codedacc[eè]s")
#: Name parts that make a random value a secret.
_SECRET_PART = re.compile(
    r"^(?:\w*secrets?|\w*tokens?|credentials?|creds|\w*authkeys?|apikey|appkey|privatekey|\w*privkey|skey|pat|cookies?"
    r"|credencial(?:es)?|credenciais|credenziali|zugangsdaten"  # (Spanish, Catalan, Portuguese, Italian, German)
    r"|\w*secretkeybase"
    r"|mnemonic|wif|keypair|unseal|hec"  # (Splunk's HTTP Event Collector token: "the HEC for …")
    r"|sessionid|sessid|phpsessid|jsessionid)$"
)
#: A session's name: its value is a bearer credential, but "session" is also a common word, so
#: only a value right after a separator counts ("session=…", not "session expired for …").
_SESSION_PART = frozenset(["session", "sess"])
#: Before "key", a word that makes it a credential ("API key", "admin key", "account key").
_KEY_QUALIFIER = frozenset(
    [
        "api",
        "access",
        "secret",
        "admin",
        "license",
        "licence",
        "account",
        "master",
        "app",
        "write",
        "read",
        "signing",
        "encryption",
        "private",
        "service",
        "auth",
        "storage",
        "partner",
        "integration",
        "management",
        "gateway",
        "root",
        "session",
        "shared",
        "webhook",
        "hmac",
        "symmetric",
        "sas",
        "subscription",
        "ingest",
        "user",
        "rest",
        "server",
        "fernet",
        "aes",
        "cipher",
        "crypto",
        "cosmos",
        "cookie",
        "csrf",
        "jwt",
        "mac",
        "application",
        "routing",
        "sdk",
        # a recovery key (BitLocker, Apple), a VPN's pre-shared key, a wallet's, Vault's unseal key
        *("recovery", "preshared", "psk", "vpn", "wireguard", "unseal", "wallet", "exchange", "bridge"),
        # a debug port's unlock key; a radio network's keys (LoRaWAN's NwkKey, Zigbee's network key, a
        # Bluetooth link key) and an enrollment group's (Azure DPS): symmetric keys every device shares
        *("unlock", "nwk", "network", "link", "group", "enrollment"),
        # Azure's two access keys of a resource ("primary key", "secondary key": `_accepts` asks
        # more of their values, a table's primary key is an id)
        *("primary", "secondary"),
        # a payment gateway's merchant key (Paytm), Magento's crypt key, PrestaShop's webservice key
        *("merchant", "crypt", "webservice", "transaction"),
        "stream",  # (a streaming service's ingest key: Restream, Twitch, YouTube)
        "http",  # (a game server's key for its HTTP API: Nakama's `runtime.http_key`)
        "munge",  # (an HPC cluster's MUNGE key: every node shares it to sign credentials)
        # a product's licence ("activation key", "product key")
        *("activation", "product", "deploy"),
    ]
)
_ACCESS_KEY_SLOTS = frozenset(["primary", "secondary"])
_LORAWAN_KEYS = frozenset(
    [
        *("nwkskey", "appskey", "nwkkey", "appkey", "fnwksintkey", "snwksintkey", "nwksenckey"),
        *("loranwkskey", "loraappskey", "loraappkey", "loranwkkey"),
    ]
)
#: Before "token" or "key", a word that makes it an identifier or a position, not a credential
#: ("device token" addresses a phone, "page token" a page, "idempotency key" a request).
_ID_QUALIFIER = frozenset(
    [
        "device",
        "registration",
        "page",
        "next",
        "continuation",
        "pagination",
        "cursor",
        "sync",
        "resume",
        "idempotency",
        "cache",
        "primary",
        "foreign",
        "partition",
        "sort",
        "public",
        "publishable",
    ]
)
#: A bare key's name ("key", "key1", "KEY"), and words before it that make it a public or an
#: SSH key, or a key that is a name ("object key", "deploy key").
#: A product's name before a bare "key" ("Datadog key", "LangSmith key"); not a type or a word
#: that starts a sentence.
_PRODUCT_NAME = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]*)*")
_NOT_PRODUCT = frozenset(
    [*("string", "this", "that", "enter", "your", "my", "our", "new", "old", "same", "one", "each", "any", "which")]
)
_BARE_KEY = re.compile(r"(?i)^key\d?$")
_PIECES = re.compile(r"[-_.:/]")
_NOT_KEY_QUALIFIER = frozenset(
    [
        *("public", "ssh", "gpg", "pgp", "host", "verify", "verifying", "verification", "object", "s3"),
        "site",  # (a captcha's site key is the page's: reCAPTCHA, hCaptcha, Turnstile)
        *("kms", "license", "foreign", "map", "dict", "json", "yaml", "config", "registry", "the", "a"),
        # a payment provider's client key is the browser's (Adyen, Midtrans): its secret is the server key
        "client",
    ]
)
#: A last name part that says the value is about a secret, not one ("token_ttl", "password_file").
_NAME_NOT_VALUE = frozenset(
    [
        "id",
        "ids",
        "name",
        "names",
        "file",
        "files",
        "path",
        "paths",
        "url",
        "uri",
        "endpoint",
        "ttl",
        "type",
        "length",
        "len",
        "size",
        "count",
        "env",
        "var",
        "ref",
        "hash",
        "digest",
        "fingerprint",
        "expiry",
        "expires",
        "expiration",
        "header",
        "prefix",
        "policy",
        "richtlinie",
        "field",
        "mode",
        "format",
        "version",
        "arn",
        "store",
        "backend",
        "role",
        "provider",
        "scope",
        "scopes",
        "source",
        "method",
        "location",
        "dir",
        "region",
        "host",
        "user",
        "username",
        "issuer",
        "audience",
        "algorithm",
        "alg",
        "rotation",
        "reset",
        "hint",
        "helper",
        "manager",
        "cache",
        "mechanism",
        "stdin",
        # a user interface's text about the secret (a locale file's "auth.password.mismatch")
        *("label", "title", "placeholder", "tooltip", "caption", "heading", "subtitle", "description", "help"),
        *("error", "errors", "message", "messages", "msg", "text", "button", "link", "mismatch", "invalid"),
        *("required", "missing", "incorrect", "wrong", "forgot", "forgotten", "weak", "changed", "expired"),
        *("toggle", "show", "hide", "visibility"),
        # a file's extension: "secrets.csv" names a file
        *("csv", "json", "yaml", "yml", "txt", "xml", "toml", "ini", "log", "md", "bak", "gz", "zip"),
    ]
)
#: A noun after a name that the name qualifies: "token refresh failed", "password policy requires".
_NAME_MODIFIES = frozenset(
    [
        *("refresh", "rotation", "expiry", "exchange", "validation", "verification", "endpoint", "request"),
        *("requests", "response", "usage", "limit", "limits", "count", "length", "policy", "policies"),
        *("manager", "scanning", "scanner", "field", "column", "prompt", "form", "strength", "lifetime"),
        *("revocation", "generation", "format", "introspection", "budget", "handling", "negotiation"),
        *("agreement", "derivation", "management", "lookup", "lookups", "reset", "resets", "hashing"),
        *("authentication", "login", "logins", "prompt", "prompts", "change", "changes", "requirements"),
        # (a reminder of the password, a tool's printout about it: "password hint: …", "wpa_passphrase output")
        *("hint", "hints", "output"),
        # (a digest of it: ClickHouse's "password_sha256_hex")
        *("md5", "sha1", "sha224", "sha256", "sha384", "sha512"),
        # (the words for a policy in other languages: "Passwort-Richtlinie: mindestens …")
        *("richtlinie", "richtlinien", "politique", "regeln"),
    ]
)
#: Words after which the next names where a value is, whose it is, or its entry in a password
#: manager, never the value: "read from X", "the password for the X image", "of X", "entry X".
_OWNER_WORDS = frozenset(
    [
        *("from", "via", "under", "the", "this", "that", "our", "your", "its", "their", "for", "of"),
        "at",  # (where: "… at fs-panzura01"; "on" is Finnish and Estonian for "is")
        *("för", "für", "pour", "per", "для", "untuk", "cho", "của", "van", "von", "dla", "של"),
        *("entry", "item", "record", "запись", "запис", "mục", "entri", "posten", "wpis", "kohdasta", "kohta"),
        *("eintrag", "entrada", "voce", "vermelding", "oppføring", "kayıt", "kaydı"),
        *("policy", "role", "group", "cluster", "namespace", "bucket", "project"),
    ]
)
#: Names after which "on" is "is" (Finnish and Estonian: "salasana on …", "parool on …"), as it
#: is in a text with their letters ("Muistiinpano: … API key on …. Vaihda tämä …"); elsewhere "on"
#: says where ("the password on vetgrp-app02 was rotated") and the word is a place.
_ON_IS_NAME = re.compile(r"(?i)(?:salasana|salasanan|avain|tunnussana|pääsykoodi|parool|salasõna|võti)\W{0,3}$")
_FINNIC = re.compile(r"[äöõÄÖÕ]")
#: Words that say where a secret is kept when they follow its name's copula or label ("the
#: password is on the label", "… è scritta sul foglietto", "Login is in Bitwarden"), and words
#: that point to it ("password: see the vault item …").
_KEPT_WORDS = frozenset(
    [
        *("in", "on", "under", "inside", "see", "stored", "kept", "saved", "written", "printed", "taped", "sent"),
        *("scritta", "scritto", "écrit", "écrite", "escrita", "escrito", "notiert", "gespeichert", "hinterlegt"),
        # "in (the)" in other languages ("está no cofre", "è nel vault", "liegt im Tresor", "est dans le coffre")
        *("no", "na", "em", "nel", "nella", "im", "dans", "en", "w"),
    ]
)
_SEE_WORDS = frozenset(["see", "siehe", "voir", "vedi", "ver", "cf", "cf."])
#: A CLI's verbs on a stored secret ("bws secret get <id>", "doppler secrets delete NAME").
_CLI_VERBS = frozenset(["get", "show", "view", "describe", "list", "ls", "delete", "rm", "inspect", "fetch", "access"])
#: Words in camel case, after a lower-case word, an acronym or a one-letter prefix (also
#: "lastKnownFileType", "JWEDecryptionFailed", "kSecAttrAccessible…": a field's or a constant's name).
_CAMEL_WORDS = re.compile(r"(?:[a-z]+|[A-Z]{2,5}(?=[A-Z][a-z]))?(?:[A-Z][a-z]{2,})+$")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,63}$")
_DECLARATION = re.compile(r"\b(?:val|var|let|const|final|def|local|my|dim)[ \t]+([A-Za-z_]\w*)\b")
_SETTING_PAIR = re.compile(r"(?i)[a-z_][\w.-]{0,40}=(?:true|false|yes|no|on|off|none|null|\d{1,10})$")
#: A URL's password that names its slot ("amqp://user:pass@host:port/vhost" in a grammar).
_PASSWORD_SLOTS = frozenset(["PASSWORD", "PASS", "PASSWD", "PWD"])
#: A word before a value that says it names a thing ("for client esp32-3ab1 — check its password").
_THING_BEFORE = re.compile(r"(?i)\b(?:client|device|host|node|user|account)[ \t]+$")
_CRYPT_HASH = re.compile(r"(?:^|[:|])\$(?:[0-9][a-z]?|2[aby]|argon2i?d?|pbkdf2[\w-]{0,10})\$[\w=,]{1,40}\$")
#: A server's stored verifier of a password, not the password: PostgreSQL's "md5…" and SCRAM
#: verifiers, MySQL's native "*<40 hex>", Werkzeug's "scrypt:…$salt$hash" and "pbkdf2:…$…".
_PASSWORD_HASH = re.compile(
    r"^(?:md5[0-9a-f]{32}$|SCRAM-SHA-(?:1|256)\$\d{1,7}:|\*[0-9A-F]{40}$|(?:scrypt|pbkdf2)(?::[\w-]{1,20}){1,4}\$)"
)
_SCRAM = re.compile(r"SCRAM-SHA-(?:1|256)\$\d{1,7}:[A-Za-z0-9+/=]{8,}\$[A-Za-z0-9+/=]{16,}:[A-Za-z0-9+/=]{16,}")
_GLUED_PREFIX = re.compile(r"[^\x00-\x7f]{1,3}-(?=[\x00-\x7f])")
_INDEXED_NAME = re.compile(r"\[\d{1,4}\]\.[A-Za-z]")
_TEMPLATE_OPEN = re.compile(r"\{[{%][ \t]*$")
#: Password managers: where a secret is kept ("the new one is in 1Password"), not its name.
_PASSWORD_MANAGERS = frozenset(["1password", "lastpass", "passbolt", "roboform"])
_MANAGER_NAMES = _PASSWORD_MANAGERS | {
    "bitwarden",
    "vaultwarden",
    "keepass",
    "keepassxc",
    "dashlane",
    "keeper",
    "enpass",
}
#: "In the vault (", "im Tresor (", "no cofre (": the name in parentheses is the entry's.
_IN_A_VAULT = re.compile(
    r"(?i)\b(?:in|im|no|na|dans|en|nel|nella|w|i)[ \t]+(?:(?:the|our|le|la|o|a|het|de|den)[ \t]+)?"
    r"(?:key[ \t]+)?(?:vault|safe|tresor|cofre|coffre(?:-fort)?|caja[ \t]+fuerte|b[óo]veda|kluis|sejfie|cassaforte"
    r"|kassaskåpet|valvet)\b[^\n().;]{0,16}\($"
)
_KEPT_IN = re.compile(r"(?i)\b(?:in|from|into|via|under)[ \t]+(?:the[ \t]+|our[ \t]+)?$")
#: A code benchmark's pass@k metric: a name's word, not a name.
_NOT_A_NAME = re.compile(r"(?i)pass@\d+|pass\^\d+")
_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z]+)\b(?![:=])")
#: The same noun as a label's last word: "password hashing: argon2id, …" is about the hashing.
_NEXT_LABEL = re.compile(r"[ \t]+([A-Za-z]+):")
#: A log line's level, then its logger's name.
_NEGATED = re.compile(r"(?i)\b(?:no|without|kein(?:e|en)?|sans|sin|sem|zonder)[ \t]+$")
_LOG_LEVELS = ("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL", "CRITICAL")
_LOG_LEVEL = re.compile(rf"\b(?:{'|'.join(_LOG_LEVELS)}|WARNING)[ \t]+$")
#: `docker run -e NAME` (no "="): the value is taken from the caller's environment.
_ENV_FLAG = re.compile(r"(?:^|\s)(?:-e|--env|--build-arg|--secret)[ \t]+$")

# -- values ------------------------------------------------------------------------------

#: The last word of a field's name for an identifier or a reference to a stored secret
#: ("credentialsId:", "secret_name:"): the value after it is that field's.
_ID_LABELS = frozenset(["id", "ids", "name", "names", "ref", "arn", "path", "file", "uri", "url"])
#: A field that holds what was derived from a secret or stored beside its hash, never the secret
#: ("key_sha256": …, "salt": …): a value under it is that field's.
_DERIVED_LABELS = frozenset(
    ["hash", "hashes", "digest", "checksum", "fingerprint", "sha1", "sha256", "sha512", "md5", "salt"]
)

#: A name's separator, then where its value starts (on the same line).
_SEP = re.compile(
    r"[\"'`\]]{0,2}[ \t]*(?:\[[^\[\]\n]{0,30}\][ \t]*)?"
    r"(?P<sep>:=|\?=|=>|->|\?\?|\|\||[:=>：]|,(?=[ \t]*[\"'])|\|(?=[^\s|])|[ \t](?=[ \t]*[^\s:=]))"
    r"[ \t]*(?:[\"'`(«“]|\[(?!(?i:redacted|filtered)))?[ \t]*"
)
_NO_VALUE_AFTER = re.compile(
    r"[ \t](?:#|//)(?:[ \t]|$)|.<[A-Za-z][\w .-]{0,60}>|.\{[{%]|\"\"(?!\")|''(?!')|[ \t](?:throw|new|await|null|None|nil|undefined)\b"
)
_VALUE = re.compile(r"[^\s\"'`,;<>]{1,400}")
_KEY_AFTER = re.compile(r"[\"'][ \t]*:(?!:)")
_EMOJI = re.compile(r":[a-z0-9_+-]{2,40}:(?![\w:])")
_EMPTY_ASSIGNMENT = re.compile(
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:PASSWORD|PASSWD|PWD|PASS|TOKEN|SECRET|KEY|CREDENTIALS?)="
)
#: The words after a name: a value may come a few words later ("token for the SMS sender: …").
#: (Chinese, Japanese and Korean text between words parts them as a space would: "…keyが送られて
#: きました。VALUE")
_WORDS = re.compile(r"[^\s\"'`,;<>\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]{1,400}")
_WORD_WINDOW = 110
_WORD_COUNT = 12
_LETTERS = re.compile(r"^\d*[A-Za-z]+$")
_VALUE_FIELD = re.compile(r"(?i)val(?:ue)?[:=]")
_ASSIGNMENT = re.compile(
    r"[A-Za-z_][A-Za-z_.-]*=|(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)=(?=[^=\s])"
)
_PIPE_PAIR = re.compile(r"[A-Za-z_][\w.-]*\|")
#: A setting's assignment: a snake_case or dotted name ("ansible_ssh_private_key_file=…"), not a
#: password with an "=" in it ("Copper=Falcon46").
_SETTING_ASSIGNMENT = re.compile(
    r"--?[a-z][a-z0-9]*(?:-[a-z0-9]+)*=|[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+=|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+="
)
#: Another name's assignment among the words after a name ("C=j@…" is a value, not a name).
_WORD_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z_.-]+=")
#: Words after which the next is what a name is ("the pw is …", "Passwort ist …", "set it to …").
_COPULAS = frozenset(
    [
        "is",
        "was",
        "are",
        "ist",
        "est",
        "es",
        "är",
        "er",
        "è",
        "é",
        "jest",
        "to",
        "reads",
        "says",
        "lautet",
        "c'est",
        "c’est",
        "és",  # (Catalan)
        *("هو", "هي"),  # (Arabic: "… هو VALUE")
        *("là", "คือ", "είναι", "je"),  # (Vietnamese, Thai, Greek; Czech, Slovak, Croatian)
        *("está", "liegt"),  # (where it is: "está no cofre", "liegt im Tresor"; `_KEPT_WORDS` follow)
        "se",  # (Haitian Creole: "nouvo modpas la se …")
        *("הוא", "היא", "है"),  # (Hebrew; Hindi: "… IPMI password है …")
    ]
)
_ARROWS = frozenset(["=", "->", "→", "=>", "—", "–", "-", "--", "←", "<-", "~"])
#: A mask over a value's first characters, and the words of a passphrase it leaves shown.
_MASK_MARKER = re.compile(r"(?i)\[(?:masked|redacted|filtered|hidden|omitted|removed|secure|sensitive)\]")
_SETTINGS_LIST = re.compile(r"^[A-Za-z_-]{2,30}[:=][\w.-]{1,8}(?:[,;&|][A-Za-z_-]{2,30}[:=][\w.-]{1,8})+$")
#: A listing's column of digests: what a secret store lists instead of the values.
_DIGEST_COLUMN = re.compile(r"\b(?:DIGEST|CHECKSUM|SHA256|SHA1|MD5|HASH|FINGERPRINT)\b")
#: A note that a value is public by design: a search-only or publishable key, one shipped to browsers.
#: Example values that vendors and standards publish for everyone (SHA-256 of each, so the values
#: themselves are not in the source): Stripe's documented test keys, RFC 7515's HMAC key (A.1),
#: the Azure Storage emulator's (Azurite's) well-known account key for `devstoreaccount1`,
#: Mailgun's example API key, and FIPS-197's AES-128 test key (the key of LoRaWAN's and many
#: specs' test vectors), in both cases, the NT hash of the empty password, xkcd 936's passphrase,
#: SNMP's default read community ("public", which every device ships with), and RFC 7617's
#: Basic credentials ("Aladdin" / "open sesame" in base64).
_DOCUMENTED_VALUES = frozenset(
    [
        "c4bbcb1fbec99d65bf59d85c8cb62ee2db963f0fe106f483d9afa73bd4e39a8a",
        "5db21f1ad63d9b336bf2f3487f1e8222e18be68f5331196941a307bb5244010c",
        "9c846fdf0fa8955c377d0301542ee20ecd4585c5f359aa0a4cf15d44424f573d",
        "4d4281de01883b3cb68eed3fd3a0b18c141b8ad1ba4f57ac487fc66e013ba862",
        "2ef2503d964e9668092e6878d3c390ca7909bbbffabd781857115e3be4bb3e5a",
        "0011cc25eb4320717494d2703e8cba85743e71b500283c21c8b88147992f9059",
        "2cafc0970149a84f3b9e62eaf169f36f59907a3b3e31f7b82e68c69cd27f7326",
        "f2d6ca16515033e5dce14eba840b979d27b5cbae24bb3e5bf484339667f86397",
        "8b1b17a9740c068accab5c3d0d652c8e3cc13206e70bb73b42ea41d4c2de3c12",
        "efa1f375d76194fa51a3556a97e641e61685f914d446979da50a551a4333ffd7",
        "cf4d418ed3de92d71f767db5391d5a2dacd40e1ce49e75d1137e2ecf4982d844",
    ]
)
_ID_ANNOTATION = re.compile(
    r"(?i)[ \t]*\((?:ulid|uuid(?:v?\d)?|cuid2?|nanoid|ksuid|snowflake(?:[ \t]+id)?|object[ \t]?id|xid)\)"
    r"|[ \t]+belongs[ \t]+to\b"  # (what an id is said to do: "API key 1FL2… belongs to sa-eoqn9e")
)
_DECLARED_PUBLIC = re.compile(
    r"(?i)\b(?:public[ \t]+by[ \t]+design|search[- ](?:only|key)|publishable|not[ \t]+(?:a[ \t]+|the[ \t]+)?secret|not[ \t]+auth|identifier[ \t]+only"
    r"|safe[ \t]+(?:to[ \t]+(?:expose|share|publish|commit|ship)|in[ \t]+(?:the[ \t]+)?(?:browser|client|frontend))"
    r"|public[ \t]+in[ \t]+the[ \t]+(?:app|browser|bundle|page|client)|client[- ]side(?![ \t]+secret)"
    r"|safe[ \t]+in[ \t]+(?:the[ \t]+)?(?:theme|storefront)|storefront[- ]access[- ]token)\b"
    # (an HTML widget's data attribute: shipped to every visitor's browser)
    r"|<[a-z][\w-]*[^<>\n]{0,200}\bdata-[\w-]*(?:key|token)=[\"']"
    # (Ghost's Content API key is read-only, documented as safe in a browser)
    r"|(?<![a-z])content[ \t_-]?api[ \t_-]?key|GhostContentAPI|(?<![a-z])content[ \t]+key[ \t]+is[ \t]+public"
    # (Algolia's `searchOnlyApiKey`; a comment that the key is public, that it ships in the game)
    r"|(?<![a-z])search[-_ ]?only(?:[-_ ]?api)?[-_ ]?key|\b(?:key|it|this|value|token)[ \t]+is[ \t]+public\b"
    r"|\(public,|,[ \t]*public\)|\bships[ \t]+in[ \t]+(?:the|every)[ \t]+(?:game|app|client|build|binary)\b"
    # (a Firebase web app's key by its setting's name; a captcha's site key)
    r"|(?<![a-z])firebase[_-]?web\b|(?<![a-z])(?:recaptcha|hcaptcha|turnstile)[ \t_-]?site[ \t_-]?key"
)
#: A line that asks about the next, or a command that prints it: a chat's question, `$ tool show …`.
_ABOUT_NEXT_LINE = re.compile(r"[^\n]*\?[ \t]*$|[ \t]*\$[ \t]")
#: The name a Firebase client config gives its API key (web, Android's google-services.json,
#: iOS's GoogleService-Info.plist).
_CONFIG_API_KEY = re.compile(
    r"\b(?:apiKey|current_key|API_KEY)[\"']?(?:</key>\s{0,20}<string>|[ \t]*[:=][ \t]*[\"']?)$"
)
#: What names a Firebase app in its client config: the app id ("1:<number>:web:<hex>") or the
#: project's sign-in domain (`authDomain: "<project>.firebaseapp.com"`).
_FIREBASE_CLIENT = re.compile(
    r"\b1:\d{6,15}:(?:android|ios|web):[0-9a-f]{6,40}\b"
    r"|\bauthDomain[\"']?[ \t]*[:=][ \t]*[\"'][\w-]{1,64}\.firebaseapp\.com\b"
    r"|\bfirebaseConfig\b|\bFirebase[ \t]+web[ \t]+config\b"  # (a web app's config object, so named)
)
_COMMENT_LINE = re.compile(r"[ \t]*(?://|#|--|/?\*|<!--)")
_NEGATION = re.compile(r"(?i)\b(?:not|never|isn't|is not|n't)[ \t]+$|\bno[ \t]+$")
_MASK_PREFIX = re.compile(r"\*{3,}|•{3,}")
_MASKED_PHRASE = re.compile(
    r"[ \t]+(?P<value>[a-z]{3,10}(?:[ \t][a-z]{3,10}){1,9}(?:[ \t](?P<digits>\d{1,4}))?)(?=[ \t]*(?:$|\n|[.,;—(]))"
)
#: Eight digits that are a date ("20240312").
_COMPACT_DATE = re.compile(r"^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$")
#: A word that names the next one an identifier or a digest: "correlation id 7f…", "request 7f…".
_ID_WORDS = frozenset(
    [
        *("id", "ids", "request", "correlation", "trace", "span", "commit", "sha", "md5", "sha1", "sha256", "uuid"),
        *("ssid", "essid"),  # (the word after names a Wi-Fi network)
        *("checksum", "digest", "коміту", "коммита", "хеш", "хэш"),  # (a digest; "commit" in Ukrainian, Russian)
        # (a name follows: "… named 'crosspost-542'"; a key's fingerprint, a secret's version id)
        *("named", "called", "titled", "labelled", "labeled", "identifier"),
        *("fingerprint", "thumbprint", "version", "גרסה", "גרסא", "prefix", "name"),
        # (a device's model, serial number and firmware: "pass): model DS-2CD2228, serial …")
        *("model", "serial", "firmware", "fw"),
    ]
)
#: A command's option; the options whose argument is a value (`gh secret set … --body VALUE`).
_OPTION = re.compile(r"--?([A-Za-z][A-Za-z-]{0,30})$")
#: Terraform's `resource "random_password" "db" {`: a type, then the resource's own name.
_HCL_BLOCK = re.compile(r"\b(?:resource|data|ephemeral)[ \t]+\"$")
_CODE_WORDS = frozenset(["??", "||", "&&", "throw"])
_OPTION_ASSIGN = re.compile(r"--?[A-Za-z][\w-]{0,30}[=:]")  # (PowerShell's "-AsPlainText:$false")
_VALUE_OPTIONS = frozenset(["body", "value", "data", "literal", "string", "text", "input"])
#: An assignment's operator after a "$name" (PHP, Perl, PowerShell): the name is set, not read.
_ASSIGNED = re.compile(r"[ \t]*=[ \t]*[\"']")
#: A command that starts a line or follows a shell operator, then an option: "sshpass -f FILE"
#: names a program, not a value.
_COMMAND_START = re.compile(r"(?:^|\n|[$|;&][ \t]*|\bsudo[ \t]+)$")
_COMMAND_OPTION = re.compile(r"[ \t]+--?[A-Za-z]")
_SSH_KEY_TYPE = re.compile(r"(?:sk-)?(?:ssh|ecdsa)-")
_TRIM = "\"'`()[]{}.,;:!?«»“”"
#: Values after a secret-sounding name that stand for one rather than being one (a template's
#: slot holds an expression: "{os.environ['DB_PASSWORD']}" in an f-string).
_PLACEHOLDER = re.compile(
    r"(?i)^(?:<[^>]*>?|\$[({].*|\$(?-i:(?![A-Z][a-z]{2,}\d{2,}[^\w\s]?$))[A-Za-z_]\w*(?:[^\w%].*)?|ENC\[.*|\$?\{\{.*|%[A-Za-z_]\w*%|%[A-Z_]+|%\([^)]*\)[sdr]|\{[A-Za-z_][\w.:-]*\}?|\{[A-Za-z_][\w.]*[\[(][^{}]*\}|\{\d{0,2}\}|#\{.*|@[\w.-]+@|\(+[A-Za-z_][\w.-]*\)*|__[A-Za-z][\w.]*__|\[\[.*|<<.*|\*+|•+|x+|\.{3,}|![A-Za-z_]+|"
    # (an article opens a phrase, "the-db-password", not a password a person made, "The*25858RE")
    r"(?:your|my|the|some)(?=$|[\s_-]|\.[A-Za-z]).*|"
    r"(?:example|sample|dummy|fake|test|placeholder|redacted|changeme|change[_-]?me|"
    r"secret|password|token|none|null|nil|undefined|todo|tbd|xxx+|env|environment|vault|required|optional|"
    r"string|stored|kept|rotated|managed|set|unset|missing|empty|injected|provided|generated|sensitive|known|in|from|via|at|on)\b.*|"
    # (defaults that software documents: Icecast's "hackme", the Redis config's "foobared")
    r"hackme|foobared|"
    r"\[(?:redacted|filtered|hidden|masked|removed|omitted)(?::[a-z_]+)?\]?.*|@[A-Za-z_][\w.]*|@[\w-]+(?:\.[\w-]+)*[:/].*|@[\w-]+(?:\.[\w-]+)+|.*(?:replace[_-]?me|change[_-]?(?:me|this)|please[_-]?change|your[_-]|example|EXAMPLE|placeholder|\.\.\.|[_.-](?:fake|dummy|bogus)\b).*)$"
)
#: A code reference rather than a value: "var.db_password", "secrets.NPM_TOKEN", "os.getenv(".
#: Dictionary words joined by dots and a number of two to four digits: a memorable password
#: ("walnut.lantern42"), not an attribute path (attributes rarely end in a number that long).
_WORDS_AND_NUMBER = re.compile(r"[a-z]{3,12}(?:\.[a-z]{3,12}){1,3}\d{2,4}")
_REFERENCE = re.compile(
    r"^(?:os\.environ[/.\[].*|Secret(?:Str|Bytes)|(?:Optional|Secret)\[.*|[A-Za-z_]\w*\((?:os\.|process\.|ENV\b).*|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+(?:\(.*)?|[A-Za-z_]+(?:\.[A-Za-z_]+)+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\[.*)$"
)
#: The references that are code however quoted: an indexer or a call ("Configuration[…", "getenv(").
_CODE_REFERENCE = re.compile(
    r"^(?:os\.environ[/.\[].*|(?:Optional|Secret)\[.*|[A-Za-z_]\w*\((?:os\.|process\.|ENV\b).*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\[.*)$"
)
#: A path rather than a value ("/run/secrets/db", "~/.pgpass", "prod/gateway/db-x").
_WORD_PIECE = r"(?:[A-Z]{0,5}[a-z]{2,}|[A-Z]{2,6}|[a-z]{0,3}\d{1,4})(?:[A-Z][a-z]{2,}|[._-](?:[A-Za-z]{2,}|\d{1,4}))*"
_MODULE_PATH = re.compile(r"_?[a-z][a-z0-9_]*(?:\.(?:[a-z_][a-z0-9_]*|\d{1,4})){3,}")
_WORD_PATH = re.compile(rf"_?{_WORD_PIECE}(?:/_?{_WORD_PIECE}){{1,15}}/?")
_PATH = re.compile(r"^(?:~?/|\.\.?/)[\w.-]*(?:/[\w.-]*)*$|^(?:[a-z][a-z0-9_.-]*/){2,}[\w.-]*$")
_QUERY_NEXT = re.compile(r"&[A-Za-z_]+\d{0,2}=")
_QUERY_REST = re.compile(r"(?:&[A-Za-z_]+\d{0,2}=[^&\s]*)+$")
#: A mail address or user@host ("root@10.0.0.7", "ci@corp.example.com").
_ADDRESS = re.compile(r"^[\w.+-]+@(?:(?:[\w-]+\.)+[A-Za-z]{2,}|\d{1,3}(?:\.\d{1,3}){3})$")
#: A query string ("a=1&b=2"; its first value holds no "#", which starts the fragment, and a
#: "%" only as an escape, RFC 3986: a Django key's "f=*t##…%&i8=" is none), a domain.
_QUERY = re.compile(
    r"(?:^|[?&])[A-Za-z_][\w.-]*=(?:[^&\s#%]|%[0-9A-Fa-f]{2})*&[A-Za-z_]+\d{0,2}=|\.(?:com|net|org|io|dev|app|cloud)(?:$|[/:])"
)
#: A date or a time stamp (ISO 8601), a MAC address: when something happened, which device.
_DATETIME = re.compile(
    r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$"
    r"|^[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}$"
)
#: A call ("os.getenv(…)"), unless what looks like one is random ("sa(qrk…").
_CALL = re.compile(r"^[A-Za-z_][\w.]*+(?:::[\w.]++)*+\(")  # (paths too: "std::env::var(", "Foo::bar(")
_CALL_OPEN = re.compile(r"^[A-Za-z_][\w.]*+(?:::[\w.]++)*+\($")
#: A method called on an object ("Rails.application.credentials.dig(…"): code however random.
_NESTED_CALL = re.compile(r"\([ \t]*[A-Za-z_]\w*\.[A-Za-z_][\w.]*\(")  # ("print(secrets.token_urlsafe(32))")
#: A call on a call's result ("gs()(e.apiKey).slice(0"): minified code, not a value.
#: A Twilio resource's SID ("SM…" a message, "MG…" a service): an id; "SK…" names an API key.
_TWILIO_SID = re.compile(r"^(?!SK)[A-Z]{2}[0-9a-f]{32}$")
_CHAINED_CALL = re.compile(r"\(\)|\)\.[A-Za-z_]\w*\(")
_METHOD_CALL = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\(")
#: Words after a name that say the value is not its secret.
_NOT_SECRET_WORDS = frozenset(["public", "id", "ids", "hash", "sha", "digest", "checksum", "commit", "fingerprint"])
#: A run of one character: "XXXXXXXX", "00000000" (a documentation placeholder's body).
_RUN = re.compile(r"(.)\1{7}")
#: Six letters of the alphabet in order, in any case, or eight digits: "ABCdef", "12345678".
_SEQUENCE = re.compile(
    "|".join([*(string.ascii_lowercase[i : i + 6] for i in range(21)), *(string.digits[i : i + 8] for i in range(3))]),
    re.I,
)
#: A word then a random body ("secret-N0CN…", "test_8f…"): the word is the token's prefix, not
#: a placeholder's.
_PREFIXED = re.compile(r"[A-Za-z]{2,12}[_.:-](?P<body>[^\s]{16,})$")
#: Values their vendors document as public, shipped in every browser bundle or app: Mapbox's
#: `pk.`, Stripe's publishable `pk_live_`, PostHog's project key `phc_`, Tailscale's public keys
#: ("nodekey:…"), a DER public key's base64 (SubjectPublicKeyInfo of RSA, EC or Ed25519: a Chrome
#: extension manifest's "key"), New Relic's browser key, Datadog's RUM client tokens,
#: RevenueCat's public SDK keys, Braintree's tokenization keys.
_PUBLIC_TOKEN = re.compile(
    r"^(?:pk\.eyJ|pk\.[\w-]{20,}\.[\w-]{10,}$|pk_(?:live|test)_|phc_|(?:node|disco|m)key:[0-9a-f]{64}"
    r"|NRJS-[a-f0-9]{19}$|pub[0-9a-f]{32}$|(?:appl|goog|amzn|strp)_[A-Za-z0-9]{20,40}$"
    r"|(?:production|sandbox)_[a-z0-9]{8}_[a-z0-9]{16}$|age1[02-9ac-hj-np-z]{58}$"
    r"|MII[BC]IjANBgkqhkiG9w0BAQEFAAOC|MIGfMA0GCSqGSIb3DQEBAQUAA4GN|MFkwEwYHKoZIzj0CAQ|MCowBQYDK2Vw)"
)
#: A high-entropy value needs this much Shannon entropy per character (base64 or hex alphabet).
_ENTROPY = {"base64": 4.0, "hex": 3.0}
_HEX = re.compile(r"^[0-9a-fA-F]+$")
_GROUPED = re.compile(r"^[A-Za-z0-9]{4,8}(?:-[A-Za-z0-9]{4,8}){3,}$")
#: (LabKey's keys are "apikey|<hex>")
_PREFIXED_HEX = re.compile(r"[a-z]{1,8}(?:_[a-z0-9]{1,8}){0,3}[_|](?P<body>[0-9a-f]{20,128})")
#: Hex in more groups than a UUID has, or in long groups ("<32 hex>-<31 hex>", a Mews token)
_HEX_GROUPS = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4,20}){5,8}|[0-9a-fA-F]{16,64}(?:-[0-9a-fA-F]{16,64})+")
_UPPER_HEX = re.compile(r"[0-9A-F]{32}")
_HEX_PAIR = re.compile(r"[0-9a-f]{16,40}:[0-9a-f]{32,128}")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_B64 = re.compile(r"^[A-Za-z0-9+/]{8,}={0,2}$|^[A-Za-z0-9_-]{8,}={0,2}$")
#: Value, then a secret-sounding name after it: "… is the prod API key", "… <- uat token".
_VALUE_FIRST = re.compile(
    r"(?<![^\s\"'`(\[])[\"'`(\[]?(?P<value>[^\s\"'`()\[\]<>]{6,400})[\"'`)\]]?[.,;:]?"
    r"(?:[ \t]*(?:<-|←|⇐|<--)|[ \t]+[—–][ \t]+|[ \t]*\n\^|[ \t]+(?:is|was|as)[ \t]+(?:the|our|my|a|an|what)\b"
    # (the same copula in German, Dutch, Spanish, French, Portuguese, Italian: "… ist das neue Passwort")
    r"|[ \t]+(?:ist|is|es|est|é|è)[ \t]+(?:der|die|das|het|de|la|el|le|a|o|il)[ \t]+(?=\w)|[ \t]+(?:that's|that[ \t]+is|it's)\b"
    r"|\?[ \t]+(?:that's|that[ \t]+is|it's)\b"
    # "… as DB_PASSWORD", "… als HMAC_SECRET", "… como apiKey": the value given to a variable
    # named in code style (words joined by "_", "." or "-", or camelCase), in several languages
    r"|(?P<as>[ \t]+(?:as|als|como|comme|come|jako|som|как)[ \t]+[`'\"]?)"
    r"(?=[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)+\b|[a-z]+[0-9]*(?:[A-Z][a-z0-9]+)+\b)"
    # "… come Cloudflare API token", "… como Mistral API key": the value given the role a name in
    # prose says (the words after are read for a secret's name, as after "is the")
    r"|[ \t]+(?:as|als|como|comme|come|jako|som)[ \t]+(?:(?:the|our|a|an|la|le|el|il|lo|o|die|der|das|den|de)[ \t]+)?"
    r"(?=[A-Za-z])"
    # "… and lives in CF_API_TOKEN on pacs01": where the value is set, a variable named in capitals
    r"|[ \t]+(?:and[ \t]+)?(?:lives|is[ \t]+stored|is[ \t]+kept|is[ \t]+set|sits)[ \t]+in[ \t]+(?=[A-Z][A-Z0-9]*_[A-Z0-9_]+\b))"
    r"(?P<rest>[^\n]{0,60})"
)

#: Words that deny what follows ("… — no password stored here").
_DENIALS = frozenset(["no", "not", "without", "never", "none", "nothing"])
#: A long value with parentheses in it (Django's keys draw on "!@#$%^&*(-_=+)"), then its name.
_VALUE_FIRST_PARENS = re.compile(
    r"(?<!\S)(?P<value>(?=[^\s]{0,400}[()])[^\s\"'`<>]{20,400})[ \t]+(?:<-|←|(?:is|was)[ \t]+the)[ \t]+(?P<rest>[^\n]{0,60})"
)
#: A reply that refers back to the value ending the line before and names it: "…: can you retry
#: with …?" / "assistant: ok, using that as the Heroku API token", "… / that's the key".
_REPLY_NAMES = re.compile(
    r"\n(?:[^\n:]{1,60}:[ \t]+)?(?i:(?:(?:ok(?:ay)?|sure|thanks|got[ \t]+it|done|great)[,.!]?[ \t]+)?"
    r"(?:(?:i'm|i[ \t]+am|i'll|i[ \t]+will|i)[ \t]+)?(?:using|used|use|saved|set|stored|added|put|keeping|kept)[ \t]+"
    r"(?:that|this|it)[ \t]+(?:as|for)[ \t]+|(?:that's|that[ \t]+is|this[ \t]+is|it's)[ \t]+)(?P<rest>[^\n]{0,60})"
)
_REPLY_NEEDS = ("that", "That", "this", "This", "it", "It")
#: The value that ends a line (before its "?" or "."), read back from the line's end.
_LINE_LAST_VALUE = re.compile(r"(?<![^\s\"'`(\[])[\"'`]?(?P<value>[^\s\"'`()\[\]<>]{6,400})[\"'`]?[?.!]?[ \t]*$")
_VALUE_FIRST_NEEDS = (
    *("<-", "←", "⇐", "—", "–", "\n^", " is ", " was ", " as ", "that", "it's"),
    *(" lives in ", " stored in ", " kept in ", " set in ", " sits in "),
    *(" ist ", " es ", " est ", " é ", " è "),
    *(" als ", " como ", " comme ", " come ", " jako ", " som ", " как "),
)
#: A line that is one value and nothing else: a note may name it on the line after ("…\nDB
#: password, verified …") or before ("JSESSIONID\n…", "recovery key for LAPTOP-1:\n…").
_LONE_VALUE = re.compile(r"(?m)^[ \t]*[\"'`]?(?P<value>[^\s\"'`]{6,400}?)[\"'`]?[ \t]*$")
#: How a line that describes the value above it may start ("^ VPN key for …", "that's the …").
_DESCRIPTION_START = re.compile(
    r"[ \t]*(?:\^|<-|->|=|—|--)?[ \t]*(?:(?:that's|that[ \t]+is|this[ \t]+is|it's|it[ \t]+is|is|was)[ \t]+)?"
    r"(?:(?:the|our|my|a|an|new)[ \t]+){0,2}"
)
#: A command that prints a new secret ("headscale preauthkeys create …", "vault token create").
_CREATES = re.compile(r"(?i)\b(?:create|generate|new|issue|mint|rotate|print|show)\b")

# -- credentials whose syntax names them ------------------------------------------------

#: "Authorization: Bearer …", "Authorization: GenieKey …" (any scheme but Basic and Digest,
#: which say more and are read apart), a scheme's parameter ("Token token=…", as PagerDuty and
#: Rails take it), "Authorization: <key>", and the scheme as its own argument:
#: `AuthenticationHeaderValue("Bearer", "…")`.
_AUTH_HEADER = re.compile(
    r"(?i)\b(?:authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:(?!basic\b|digest\b)[a-z][\w-]{1,30}[ \t]+(?:[a-z_]{1,20}=\"?)?)?"
    r"|bearer[ \t]+|bearer[\"'][ \t]*,[ \t]*[\"']|authorization=bearer[ \t]+)(?P<value>[A-Za-z0-9._~+/=:!%-]{10,600})"
)
#: An RTMP ingest URL's last path segment: the stream key (YouTube's `…/live2/<key>`, Twitch's `…/app/<key>`).
_RTMP_KEY = re.compile(
    r"(?i)\brtmps?://[^/\s]{1,100}/(?:[\w.-]{1,40}/){1,3}(?P<value>[A-Za-z0-9_-]{16,200})(?![\w/.-])"
)
_QUOTED_BEARER = re.compile(r"(?i)\bbearer[ \t]+(?P<value>(?:(?!&\w+=)[^\s\"'`]){10,600})(?=[\"'`])")
_BASIC = re.compile(r"(?i)\bbasic[ \t]+(?P<value>[A-Za-z0-9+/]{8,400}={0,2})(?![A-Za-z0-9+/=])")
#: A user and password on a command line: curl -u, --user, httpie -a, wget --http-password.
_USER_PASS = re.compile(
    r"(?:(?<=\s)-u|--user|(?<=\s)-a|--auth|--(?:src-|dest-)?creds)(?:[ \t]+|=)[\"']?(?P<user>[^\s:\"'@/]{1,128}(?:@[\w.-]{1,128})?)[\"']?:"
    # (not a URL: "redis-cli -u redis://host:6379/5"; quoted, a password may hold spaces)
    r"(?!//)(?P<q>[\"'])?(?P<value>(?(q)[^\"'\n@]{1,200}|[^\s\"'@]{1,200}))(?(q)(?P=q))"
)
#: The password flag of a command line. mysql's `-p` takes its value glued on (`-pSECRET`):
#: `-p dbname` prompts for the password and names the database. sshpass and twine take it apart.
_MYSQL = re.compile(
    r"\b(?:(?:mysql|mysqldump|mysqladmin|mariadb)\b(?:[^\n\\]|\\\n|\\){0,160}?\s-p|(?:sshpass|twine)\b[^\n]{0,120}?[ \t]-p[ \t]*)"
    r"(?P<q>[\"']?)(?P<value>[^\s\"']{1,200}|(?<=[\"'])[^\"'\n]{1,200})(?P=q)"
)
_MYSQL_COMMAND = re.compile(r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b")
_NETRC = re.compile(r"\bmachine[ \t]+\S{1,200}\s+login[ \t]+\S{1,200}\s+password[ \t]+(?P<value>\S{1,200})")
_PGPASS = re.compile(
    r"(?m)^(?:[-*•][ \t]+)?(?![0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}\b)[A-Za-z0-9_.*-]{1,200}:(?:\d{1,5}|\*):[^\s:]{1,200}:[^\s:]{1,200}:"
    r"(?P<value>\S(?:[^\n]{0,198}\S)?)[ \t]*$"  # (the password is the rest of the line, spaces and all)
)
_HTPASSWD = re.compile(
    r"\bhtpasswd(?:[ \t]+-[A-Za-z]{1,8}){0,4}?[ \t]+-[A-Za-z]{0,8}b[A-Za-z]{0,8}(?:[ \t]+-[A-Za-z]{1,8}){0,4}"
    r"[ \t]+\S{1,200}[ \t]+\S{1,200}[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
)
_AUTH_TUPLE = re.compile(
    r"\bauth[ \t]*=[ \t]*\([ \t]*[\"'][^\"'\n]{0,64}[\"'][ \t]*,[ \t]*[\"'](?P<value>[^\"'\n]{1,200})[\"']"
)
#: name/value pairs: `- name: DB_PASSWORD` + `value: …`, `<add key="DbPassword" value="…"/>`, and
#: the same fields with a qualifier, a few fields apart in one object (Terraform's `secret_name` /
#: `plaintext_value`, `az … keys list`'s `"keyName": "key1", …, "value": "…"`).
_NAME_FIELD = re.compile(
    r"(?i)(?<![\w-])(?:[a-z]{1,20}_?)?(?:name|key|type)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<name>[\w./-]{1,80})[\"']?"
)
_VALUE_FIELD_AFTER = re.compile(
    r"(?i)(?<![\w-])(?:[a-z]{1,20}_?)?value[\"']?[ \t]*[:=][ \t]*[\"']?(?P<value>[^\s\"'<>]{1,400})"
)
#: Where an object's fields end: its brace, the next list item, the next name.
_FIELDS_END = re.compile(r"(?i)[{}]|\n[ \t]*-|(?<![\w-])(?:[a-z]{1,20}_?)?name[\"']?[ \t]*[:=]")
#: XML properties: `<name>fs.s3a.secret.key</name><value>…</value>`, `<property name="…">` then
#: `<value>…</value>`, a KeePass entry's `<Key>Password</Key><Value …>`, an element holding a value,
#: a property list's `<key>ApiKey</key><string>…</string>` (iOS `Info.plist`, macOS preferences).
_XML_PROPERTY = re.compile(
    r"(?:<(?i:name|key)>(?P<name>[\w./:-]{1,80})</(?i:name|key)>|\bname=[\"'](?P<name2>[\w./:-]{1,80})[\"'][^<>\n]{0,80}>"
    r"|<(?P<name3>[\w.:-]{1,80})>)"
    r"\s{0,20}<(?P<tag>(?i:value|string|data))(?:[ \t][^<>\n]{0,80})?>\s{0,80}?(?P<value>[^<\s]{1,400})\s{0,80}</(?P=tag)>"
)
#: pytest's report of a failed comparison: the source line names the value's variable ("assert
#: settings.smtp_password == expected", or on the right of the comparison), its `E` line shows
#: the value the variable held.
_PYTEST_NAME = r"(?:[\w]{1,60}\.){0,4}(?:\w{1,60}\[[\"'])?(?P<name>\w{1,80})(?:[\"']\])?"
_PYTEST_E_LINE = r"[^\n]*\n(?:[^\n]*\n){0,3}?E[ \t]+(?:AssertionError:[ \t]+)?assert[ \t]+"
_PYTEST_VALUE = r"(?P<q>[\"'])(?P<value>[^\"'\n]{4,400})(?P=q)"
_PYTEST_ASSERT = re.compile(rf"(?m)^[ \t>]*assert[ \t]+{_PYTEST_NAME}[ \t]*(?:==|!=){_PYTEST_E_LINE}{_PYTEST_VALUE}")
_PYTEST_ASSERT_RIGHT = re.compile(
    rf"(?m)^[ \t>]*assert[ \t]+[^\s=]{{1,80}}[ \t]*(?:==|!=)[ \t]*{_PYTEST_NAME}[ \t]*\n"
    rf"(?:[^\n]*\n){{0,3}}?E[ \t]+(?:AssertionError:[ \t]+)?assert[ \t]+"
    rf"(?P<q1>[\"'])[^\"'\n]{{0,400}}(?P=q1)[ \t]*(?:==|!=)[ \t]*{_PYTEST_VALUE}"
)
#: A write to a key-value store, named by its key's last segment: `consul kv put config/app/jwt_secret
#: 'X'` (Consul's CLI), `etcdctl put /app/db_password X`.
_KV_PUT = re.compile(
    r"\b(?:consul[ \t]+kv[ \t]+put|etcdctl(?:[ \t]+--?[\w-]{1,30}(?:=\S{1,200})?)*[ \t]+put)(?:[ \t]+-[\w-]{1,30}(?:=\S{1,200})?)*"
    r"[ \t]+[\"']?(?:[\w.-]{1,100}/){0,10}(?P<name>[\w.-]{1,100})[\"']?[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,400})(?P=q)"
)
#: A CloudFormation template's parameter default: `DbPassword:` then, indented under it, `Type:`,
#: `NoEcho:` … and `Default: '…'` (the AWS template reference's Parameters syntax).
_CFN_PARAMETER = re.compile(
    r"(?m)^(?P<indent>[ \t]*)(?P<name>[A-Za-z][\w]{1,80}):[ \t]*\n(?:(?P=indent)[ \t]+[A-Za-z]\w{0,40}:[ \t]*[^\s][^\n]{0,200}\n){0,8}?"
    r"(?P=indent)[ \t]+Default:[ \t]*[\"']?(?P<value>[^\"'\s]{1,400})"
)
#: A Terraform variable's default: `variable "db_password" { … default = "…" }`.
_TF_VARIABLE = re.compile(
    r"\bvariable[ \t]+\"(?P<name>[\w-]{1,80})\"[ \t]*\{[^{}]{0,300}?\bdefault[ \t]*=[ \t]*\"(?P<value>[^\"\s]{1,400})\""
)
#: A CLI's login that takes the key as its argument (`wandb login <key>`).
_LOGIN_ARGUMENT = re.compile(
    r"(?m)^[ \t]*(?:[$>#][ \t]+|[!%])?[\w-]{2,30}[ \t]+(?:auth[ \t]+)?login[ \t]+(?:--relogin[ \t]+)?"
    r"(?P<value>[A-Za-z0-9_.-]{32,300})(?![\w.-])"
)
_SENSITIVE_TRUE = re.compile(r"\bsensitive[ \t]*=[ \t]*true\b")
#: A cloud resource's id ("vpc-0a1b2c3d4e5f67890", "sg-…", "ami-…").
_RESOURCE_ID = re.compile(r"[a-z]{1,12}-[0-9a-f]{8,17}")
#: Words joined into a name ("prod-eks-cluster-2024").
_JOINED_NAME = re.compile(r"[a-z]+(?:[-_][a-z0-9]+)+|[a-z]+(?:[A-Z][a-z]{2,}[0-9]*)+|(?:[A-Z][a-z]{2,}[0-9]*){2,}")
#: A sign-in told in prose: "you can log in as ci-bot with …", "sign in as admin using …".
_LOGIN_WITH = re.compile(
    r"(?i)\b(?:log(?:ged)?[ \t-]?in|sign(?:ed)?[ \t-]?in)[ \t]+as[ \t]+[\"'`]?[\w.@+-]{1,64}[\"'`]?[ \t]+(?:with|using)[ \t]+"
    r"(?:(?:the[ \t]+)?(?:password|passphrase)[ \t]+)?[\"'`]?(?P<value2>[^\s\"'`]{6,200})"
)
#: "the admin login is app / s3cret", "credentials: deploy / s3cret", "guest wifi: SSID / s3cret"
#: (not a vault's folder and item: "login is in Bitwarden under 'Streaming / Hulu'").
_LOGIN_PAIR = re.compile(
    r"(?i)\b(?:login|credentials?|creds|wi-?fi|wlan)\b(?:(?!\b(?:under|see)\b|\bis[ \t]+in\b)[^\n/]){0,60}?[ \t:][\"']?"
    r"(?!(?:\d+[ \t]*)?(?:ms|s|secs?|mins?|h|hrs?|hours?|days?|d|weeks?|[kmgt]i?b)[\"']?[ \t]+/)[\w.@+-]{1,64}[\"']?[ \t]+/[ \t]+"
    r"(?P<value>[^\s/]{4,200})"
    # ("creds are jsmith:…", "login jsmith:… on staging")
    r"|(?i:\b(?:login|credentials?|creds)(?:[ \t]+(?:are|is))?)[ \t:]+[A-Za-z][\w.@+-]{0,63}:(?P<value2>[^\s/]{6,200})"
)
#: An account and its password written "user / password" where the words before name an account
#: ("admin / …", "use omar / …", "with user scanner / …", "UI -> apc / …"), or a device's
#: built-in account run together ("admin/…").
_ACCOUNT_PAIR = re.compile(
    r"(?i)(?:(?:\b(?:admin|administrator|root|user|use|uses|login|account)|->|:)[ \t]+[\w.@\\-]{1,64}[ \t]+/[ \t]+"
    r"|(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+[ \t]+/[ \t]+"  # a mailbox and its password
    r"|(?<![\w/.:-])(?:admin|administrator|root)/)(?P<q>)(?P<value>[^\s/]{6,200}?)[.,;)]?(?=\s|$)"
)
#: An account and its password joined by " + " or " / " after words that name a sign-in, where no
#: word right before the account says so (`_ACCOUNT_PAIR`): "Synology DSM admin: contractor +
#: Fall2023!", "… login for all clinics. It is sa + …", "… is vgadmin / …", "CN=svc-ldap,DC=corp
#: + …". The account is a login's token (a name, a mailbox, DOMAIN\\user, a directory's DN).
_JOINED_PAIR = re.compile(
    r"(?<![^\s:\"'`])(?P<user>(?:[A-Za-z][\w.-]{0,30}\\|\.\\)?[\w.@=,-]{2,120})[ \t]+[+/][ \t]+"
    r"(?P<value>[^\s\"'`]{6,200}?)[.,;)]?(?=\s|$)"
)
#: Words for a sign-in within the 100 characters before such a pair ("sa" is SQL Server's
#: administrator; the words for a password in other languages are `_NAME_HINT`'s).
_SIGN_IN_WORDS = re.compile(
    r"(?i)\b(?:admin\w*|administrator|superadmin|root|sa|log-?in|sign-?in|accounts?|users?|username|passwords?"
    r"|passphrase|passwd|credentials?|creds|bind|ssid|s?ftps?|ssh|smtp|imap|rdp|vpn|portal|console|controller)\b"
)
#: A change log's line that names the setting in one field and gives its value in another
#: (Splunk's audit of a config change: `field=SPLUNK_HEC_TOKEN  new_value=…`).
_FIELD_VALUE = re.compile(
    r"(?i)\b(?:field|key|name|setting|param(?:eter)?|variable|var)=[\"']?(?P<name>[A-Za-z][\w.-]{1,80})[\"']?"
    r"[ \t]+(?:[\w.-]{1,30}=[^\s]{0,80}[ \t]+){0,3}?(?:new_?)?value=[\"']?(?P<value>[^\s\"']{4,400})"
)
#: Elasticsearch's encoded API key: base64 of the key's id (20 characters) ":" the key (22), so
#: 43 bytes: 58 characters and "==".
_ELASTIC_API_KEY = re.compile(r"(?<![\w+/=-])(?P<value>[A-Za-z0-9+/]{58}==)(?![\w+/=-])")
_ELASTIC_DECODED = re.compile(r"[A-Za-z0-9_-]{20}:[A-Za-z0-9_-]{22}")
#: A Perforce (Helix Core) ticket, 32 upper-case hex digits as `p4 login -p` prints them: set as
#: P4TICKET, a `.p4tickets` line ("ssl:host:1666=user:TICKET"), given to `p4 -P`, or named in
#: prose ("the Perforce ticket (…)", "Perforce ticket ของ X คือ …").
_P4_TICKET = re.compile(
    r"(?:(?i:\bp4_?ticket\b)[^\n]{0,80}?|(?m:^[ \t]*(?:ssl:)?[\w.-]{1,200}:\d{2,5}=[\w.@-]{1,100}:)"
    r"|\bp4[ \t](?:[^\n]{0,200}?[ \t])?-P[ \t]+[\"']?|(?i:\b(?:perforce|helix|p4)[ \t]+ticket\b)[^\n]{0,80}?)"
    r"(?<![\w])(?P<value>[0-9A-F]{32})(?![\w])"
)
#: A MathWorks file installation key (groups of five digits) where its name stands before it:
#: `fileInstallationKey:`, MATLAB_FIK, "the installation key is …" (digits alone are no secret).
_INSTALLATION_KEY = re.compile(
    r"(?i)(?:\bfile[ _-]?installation[ _-]?key|\bmatlab[_-]?fik\b|\binstallation[ _-]key)[^\n\d]{0,40}?"
    r"(?<![\d-])(?P<value>\d{5}(?:-\d{5}){3,})(?![\d-])"
)
#: The URL's password ("postgres://app:…@db"), percent-encoded or not.
_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.-]{1,20}:/{1,2}[^\s/:@<>]{0,64}:(?P<value>[^\s@/<>]{1,200})@")
#: Keys that providers document as a URL's path: a self-hosted chat's incoming webhook
#: (Mattermost's and Rocket.Chat's `/hooks/ID[/TOKEN]`), a blockchain node's key (Alchemy's
#: `/v2/KEY`, Infura's `/v3/KEY`, QuickNode's), a Philips Hue bridge's user (`/api/USER/lights`).
_PATH_KEY = re.compile(
    r"://[^\s/?#]{1,253}(?:/[\w.~-]{1,80}){0,4}?/hooks/(?P<hook>[A-Za-z0-9_-]{20,80}(?:/[A-Za-z0-9_-]{20,80})?)"
    r"|\.(?:alchemy\.com|alchemyapi\.io)/v2/(?P<alchemy>[A-Za-z0-9_-]{24,64})"
    r"|\.infura\.io/v3/(?P<infura>[a-f0-9]{32})\b|\.quiknode\.pro/(?P<quicknode>[a-f0-9]{32,64})\b"
    r"|/api/(?P<hue>[A-Za-z0-9-]{30,48})/(?:lights|groups|config|sensors|scenes|schedules|rules|resourcelinks)\b"
    # a Google Calendar's secret address ("…/ical/ID/private-HEX/basic.ics")
    r"|calendar\.google\.com/calendar/ical/[^/\s]{1,200}/private-(?P<ical>[a-f0-9]{32})\b"
)
#: A link that signs someone in or grants access by holding a token: a password reset, an invite, a
#: magic sign-in or an email confirmation link, with the token as its last path segment
#: ("…/magic-link/verify/TOKEN", "…/join/TOKEN") or a query parameter ("…/invite/accept?code=…").
_AUTH_LINK = re.compile(
    r"\bhttps?://[^\s/?#\"'<>]{1,253}(?P<path>(?:/[^\s/?#\"'<>]{1,100}){1,8}?)/(?P<token>[A-Za-z0-9_-]{16,256})"
    r"(?=[?#\"'<>)\]\s,;]|$)"
    r"|\bhttps?://[^\s/?#\"'<>]{1,253}(?P<qpath>(?:/[^\s/?#\"'<>]{1,100}){1,8})\?(?:[^\s#\"'<>&]{0,300}&){0,10}?"
    r"(?:code|t|invite|invite_token|invitation_token|reset_token|confirmation_token|verification_token|magic_token"
    r"|login_token|otp|ticket)=(?P<qvalue>[A-Za-z0-9_.%-]{16,512})"
)
_AUTH_PATH = re.compile(
    r"(?i)reset|invit|join|verif|confirm|activat|magic|log-?in|sign-?in|accept|claim|recover|unlock|onboard"
)
#: An AWS key pair written together: the access key's id, then its secret access key (40 characters
#: of base64) after a separator ("AKIA… / …", "AKIA…:…", a CSV row).
_USERLIST = re.compile(r"(?m)^[ \t]*\"[^\"\s]{1,100}\"[ \t]+\"(?P<value>[^\"\s]{1,200})\"[ \t]*$")
#: A shell history's (numbered) line running a command that prompts for a password, then a line
#: that is no command but the password typed at the wrong prompt.
_PROMPTED = re.compile(
    r"(?m)^[ \t]*(?:\d{1,6}[ \t]+)?(?:sudo(?:[ \t]+-[isS]{1,2})?(?:[ \t]+su(?:[ \t]+-)?)?|su(?:[ \t]+-)?(?:[ \t]+[\w.-]{1,32})?)"
    r"[ \t]*\n[ \t]*(?:\d{1,6}[ \t]+)?(?P<value>[^\s]{8,200})[ \t]*$"
)
#: WordPress's authentication keys and salts (wp-config.php's `define('AUTH_KEY', '…')`, the
#: Docker image's WORDPRESS_AUTH_KEY): 64 printable characters whose symbols cut a plain value.
_WP_SALT = re.compile(
    r"\b(?:WORDPRESS_)?(?:SECURE_AUTH|LOGGED_IN|AUTH|NONCE)_(?:KEY|SALT)[\"']?[ \t]*(?:,|=>?|:)[ \t]*"
    r"(?P<q>[\"'])(?P<value>[^\"'\n]{32,128})(?P=q)"
    # (unquoted in an .env file, up to the end of its line)
    r"|(?m:^[ \t]*(?:export[ \t]+)?(?:WORDPRESS_)?(?:SECURE_AUTH|LOGGED_IN|AUTH|NONCE)_(?:KEY|SALT)="
    r"(?P<bare>[^\s\"'][^\n]{31,127}?)[ \t]*$)"
)
_KEY_FILE_LINE = re.compile(
    r"(?mi)^[ \t]*(?P<file>[\w.~/-]{0,200}\.(?:key|secret|token))[ \t]*:[ \t]*[`\"']?(?P<value>[^\s`\"']{16,400}?)[`\"']?[ \t]*$"
)
#: A rotated value announced without its name ("old one expired; new value is …").
_NEW_VALUE = re.compile(
    r"(?i)\b(?:new[ \t]+(?:value|one)[ \t]+(?:is|=|:)|set[ \t]+it[ \t]+to)[ \t]*[`\"']?(?P<value>[^\s`\"']{8,400})"
)
#: A value announced after the sentence named its secret: "… Gmail app password … Value: …",
#: "Current value is \"…\"", "Correct value: …", "… revoked. Replaced it with …".
_ANNOUNCED_VALUE = re.compile(
    r"(?i)(?:\b(?:current|correct|actual|new|agreed|shared|final|working|valid|right)[ \t]+value(?:[ \t]+for[ \t]+now)?(?:[ \t]+is|[ \t]*[:=])"
    r"|(?<![\w.-])value[ \t]*:|\bnew[ \t]+one[ \t]*:"
    r"|\b(?:replaced|changed|rotated|reset|updated|set)[ \t]+it[ \t]+(?:with|to))[ \t]*(?P<q>[`\"'«“]?)[ \t]*(?P<value>[^\s`\"'»”]{3,400})"
)
#: Words of a setting about secrets rather than a secret ("password expiry", "lockout threshold").
_POLICY_WORDS = re.compile(
    r"(?i)\b(?:polic(?:y|ies)|expir\w*|max[_ ]?age|lockout|length|rules?|hasher|hashing|rounds|hint|requirements?"
    r"|complexity|rotation|threshold|strength|setting|reset[ \t]+link|field|button|placeholder|format"
    r"|manager|vendor|cache)\b"
)
#: A setting's value: a number with its unit, a class's name, an identifier, an assignment.
_SETTING_VALUE = re.compile(
    r"\d+[a-z]+|(?:[A-Z][a-z0-9]+){2,}|[a-z]+(?:[A-Z][a-z0-9]+)+|[a-z]+(?:_[a-z0-9]+)+(?:=[\w.]+)?|[\w.]+\([^)]*\)?"
)
_ANNOUNCED_NEEDS = (
    "value:",
    "value :",
    "value is",
    "value =",
    "value=",
    "one:",
    "one :",
    " it with ",
    " it to ",
    "value for now",
)
_WALLET_KEY = re.compile(
    r"(?:\baccounts[\"']?[ \t]*:[ \t]*\[[ \t]*|(?:\bfrom_key|\bprivateKeyToAccount|\bWallet|\bfromPrivateKey)\([ \t]*)"
    r"[\"'](?P<value>(?:0x)?[0-9a-fA-F]{64})[\"']"
)
#: A quoted value, then what it is: a parenthesis naming a secret, or the user it logs in.
_QUOTED_THEN_NAME = re.compile(
    r"`(?P<value>[^`\s]{8,400})`[ \t]*(?:\((?P<name>[^()\n]{2,60})\)|(?P<user>for[ \t]+(?:the[ \t]+)?(?:user|login|account)[ \t]+\S))"
)
_SECRET_NOUN = re.compile(r"(?i)(?:secret|token|key|password|passphrase|credential)s?\b")
_AWS_PAIR = re.compile(
    r"\b(?:AKIA|ASIA)[A-Z2-7]{16}\b[\"']?[ \t]*(?:[/:,;|][ \t]*|[ \t])[\"']?(?P<value>[A-Za-z0-9+/]{40})(?![A-Za-z0-9+/=])"
)
#: A token as a URL's user ("https://TOKEN@github.com").
#: A keytab's key as `klist -k -K` prints it: "(0x" then the key's bytes in hex.
#: A key pair written with the consoles' abbreviations: "AK <id> / SK <secret>" (Alibaba's and
#: Huawei's AccessKey and SecretKey), "AK …, AS …" (OVH's application key and secret).
_SHORT_PAIR = re.compile(
    r"\bAK[:=]?[ \t]+[\"']?[A-Za-z0-9]{12,40}[\"']?[ \t]*(?:[,/;|]|and)?[ \t]*\b(?:SK|AS)[:=]?[ \t]+[\"']?"
    r"(?P<value>[A-Za-z0-9+/_-]{16,100})"
)
_KLIST_KEY = re.compile(r"\(0x(?P<value>[0-9a-fA-F]{32,128})\)")
#: Zendesk's API-token login, "{email}/token:{api_token}" (its docs' Basic pair).
_EMAIL_TOKEN = re.compile(r"[\w.+-]{1,64}@[\w.-]{1,253}/token:(?P<value>[A-Za-z0-9]{20,64})\b")
_URL_TOKEN = re.compile(r"\bhttps?://(?P<value>[A-Za-z0-9_.~-]{20,200})@")


def _cli(tools: str, flag: str, glued: bool = False) -> re.Pattern[str]:
    """The value of *flag* (a pattern) on a command line of one of *tools* (a pattern), taken
    apart from the flag or, when *glued*, right after it ("7z -pSECRET")."""
    space = "" if glued else r"(?:[ \t]+|=)"
    return re.compile(
        rf"\b(?:{tools})\b[^\n]{{0,200}}?(?<=\s)(?:{flag}){space}(?P<q>[\"']?)"
        rf"(?P<value>[^\s\"']{{1,200}}|(?<=[\"'])[^\"'\n]{{1,200}})(?P=q)"
    )


#: Password flags that their programs' manuals document, where the flag alone is not a name
#: ("-p", "-P", "-w", "/p:"); a flag that is one ("--password", "-storepass") is read as a name.
_CLI_PASSWORDS = (
    (_cli(r"security[ \t]+(?:unlock|create)-keychain", r"-p"), ("security",)),
    (_cli(r"security[ \t]+import", r"-P"), ("security",)),
    (_cli(r"security[ \t]+add-(?:generic|internet)-password", r"-w"), ("security",)),
    (_cli(r"zip|unzip", r"-P"), ("zip",)),
    (_cli(r"mcrcon", r"-p"), ("mcrcon",)),
    (
        re.compile(
            r"\b(?:mosquitto_passwd|htdigest)\b[^\n]{0,100}?[ \t]-b[ \t]+\S{1,200}[ \t]+\S{1,100}[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
        ),
        ("mosquitto_passwd", "htdigest"),
    ),
    (_cli(r"ssh-keygen", r"-[NP]"), ("ssh-keygen",)),
    (_cli(r"7z|7za|7zr", r"-p", glued=True), ("7z",)),
    (_cli(r"ldap[a-z]{2,10}", r"-w"), ("ldap",)),
    (
        _cli(r"ipmitool|sqlcmd|bcp|mosquitto_pub|mosquitto_sub|mosquitto_rr", r"-P"),
        ("ipmitool", "sqlcmd", "bcp", "mosquitto"),
    ),
    (_cli(r"redis-cli", r"-a"), ("redis-cli",)),
    (_cli(r"signtool(?:\.exe)?", r"/p"), ("signtool",)),
    # Codecov's uploader takes the repository's upload token as `-t`
    (_cli(r"codecov(?:cli)?", r"-t"), ("codecov",)),
    # steamcmd's `+login USER PASSWORD` (its documented scripting form)
    (
        re.compile(
            r"\bsteamcmd\b[^\n]{0,100}?\+login[ \t]+[^\s+]{1,64}[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"'+][^\s\"']{0,199})(?P=q)"
        ),
        ("steamcmd",),
    ),
    (_cli(r"altool", r"-p"), ("altool",)),
    (
        _cli(r"mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|psexec|rdesktop", r"-p"),
        ("mongo", "psexec", "rdesktop"),
    ),
    (_cli(r"xfreerdp|wlfreerdp|sdl-freerdp", r"/p:", glued=True), ("freerdp",)),
    (
        re.compile(
            r"\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(?P<q>[\"'])(?P<value>[^\"'\n]{1,200})(?P=q)[^\n]{0,40}?-AsPlainText"
        ),
        ("-asplaintext",),
    ),
    # "-U user%password" (Samba), "nmcli … password …", "wpa_passphrase SSID …"
    (
        re.compile(
            r"\b(?:smbclient|rpcclient|smbget|smbcacls|net)\b[^\n]{0,200}?[ \t]-U[ \t]*[\"']?[^\s%\"']{1,100}%(?P<q>)(?P<value>[^\s\"']{1,200})"
        ),
        ("%",),
    ),
    (
        re.compile(
            r"\bnmcli\b[^\n]{0,200}?[ \t](?:password|wifi-sec\.psk)[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
        ),
        ("nmcli",),
    ),
    (
        re.compile(
            r"\bwpa_passphrase[ \t]+(?:\"[^\"\n]{1,64}\"|'[^'\n]{1,64}'|\S{1,64})[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)(?=[ \t]*(?:$|[\n|>;&#)`]))"
        ),
        ("wpa_passphrase",),
    ),
    # a Caddyfile's DNS-challenge provider and its API token ("dns cloudflare TOKEN", "acme_dns duckdns
    # TOKEN"), as the caddy-dns modules take it (Caddy's docs show "{env.CF_API_TOKEN}" there)
    (
        re.compile(r"(?m)^[ \t]*(?:acme_)?dns[ \t]+[a-z][a-z0-9_]{1,30}[ \t]+(?P<value>[A-Za-z0-9_-]{30,80})[ \t]*$"),
        ("dns",),
    ),
    # "rabbitmqctl add_user USER PASS", "net use … PASS /user:…", "mc alias set ALIAS URL KEY SECRET"
    (
        re.compile(
            r"\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S{1,100}[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
        ),
        ("rabbitmqctl",),
    ),
    (
        re.compile(
            r"\bnet[ \t]+use\b[^\n]{0,200}?[ \t]/user:\S{1,100}[ \t]+(?P<q>[\"']?)(?P<value>[^\s/*\"'][^\s\"']{0,199})(?P=q)"
        ),
        ("net use",),
    ),
    (
        re.compile(
            r"\bnet[ \t]+use\b[^\n]{0,200}?\\\\\S{1,200}[ \t]+(?P<q>[\"']?)(?P<value>[^\s/*\"'][^\s\"']{0,199})(?P=q)[ \t]+/user:"
        ),
        ("net use",),
    ),
    (
        re.compile(
            r"\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S{1,100}[ \t]+\S{1,300}[ \t]+\S{1,200}[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
        ),
        ("mc ",),
    ),
)
#: Password lines of other programs' syntax: `lftp -u user,password`, Windows' `net user NAME
#: PASSWORD /add`, Cisco's `crypto isakmp key KEY address PEER`, a PgBouncer `userlist.txt`
#: line (`"user" "password"`).
_OTHER_PASSWORDS = (
    # MAVProxy's `signing setup PASSPHRASE` / `signing key PASSPHRASE` (MAVLink 2 message signing)
    (
        re.compile(
            r"(?m)^[ \t]*(?:MAV>[ \t]*signing[ \t]+(?:setup|key)|signing[ \t]+setup)[ \t]+(?P<q>)(?P<value>[^\s:]{6,200})$"
        ),
        ("signing",),
    ),
    # an SNMP community given before its protocol version ("… community plover-RW v2c"), a SIM's PIN
    # given to a modem (`AT+CPIN="1234"`, and after a PUK: `AT+CPIN="PUK","PIN"`)
    (re.compile(r"\bcommunity[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{4,64})(?P=q)[ \t]+v(?:1|2c|3)\b"), ("community",)),
    # (a PUK and then a new PIN: both are secrets, each found by one pattern)
    (re.compile(r"\bAT\+CPIN=(?P<q>\")(?P<value>\d{4,8})(?P=q)"), ("at+cpin",)),
    (re.compile(r"\bAT\+CPIN=\"\d{8}\",(?P<q>\")(?P<value>\d{4,8})(?P=q)"), ("at+cpin",)),
    # a game server's Steam login token (`+sv_setsteamaccount GSLT`), ARK's console `enablecheats PASSWORD`
    (
        re.compile(r"\bsv_setsteamaccount[\"']?[ \t:=]+(?P<q>[\"']?)(?P<value>[0-9A-F]{32})(?P=q)"),
        ("sv_setsteamaccount",),
    ),
    (re.compile(r"(?m)^[ \t>]*enablecheats[ \t]+(?P<q>)(?P<value>\S{4,200})"), ("enablecheats",)),
    # `tpm2_changeauth -c owner NEWAUTH`: a TPM hierarchy's new authorization value
    (
        re.compile(
            r"\btpm2_changeauth\b(?:[ \t]+-[cpC][ \t]+\S{1,100})*[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"'-][^\s\"']{0,199})(?P=q)"
        ),
        ("tpm2_changeauth",),
    ),
    (_cli(r"lftp", r"-u[ \t]+[^\s,\"']{1,100},", glued=True), ("lftp",)),
    # Oracle's Easy Connect string: `user/password@host:port/service` (sqlplus, a CIS's connect setting)
    (
        re.compile(
            r"(?<![\w/.-])[A-Za-z_][\w$#]{0,29}/(?P<q>)(?P<value>[^\s/@\"']{1,100})@[\w.-]{1,100}:\d{2,5}/[\w.$#-]{1,64}"
        ),
        ("@",),
    ),
    # FreeRADIUS' `radclient [options] server {auth|acct|status|coa|disconnect} SECRET`
    (
        re.compile(
            r"\bradclient\b[^\n|;&]{0,300}?[ \t](?:auth|acct|status|coa|disconnect)[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"'-][^\s\"']{0,199})(?P=q)"
        ),
        ("radclient",),
    ),
    # SAP HANA's secure store: `hdbuserstore SET KEY HOST:PORT USER PASSWORD`; Windows' product key
    # (`slmgr /ipk KEY`); Unity's licence serial (`-serial SERIAL`)
    (
        re.compile(
            r"\bhdbuserstore\b(?:[ \t]+-\w+)*[ \t]+SET[ \t]+\S{1,100}[ \t]+\S{1,200}[ \t]+\S{1,100}[ \t]+"
            r"(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)",
            re.I,
        ),
        ("hdbuserstore",),
    ),
    (
        re.compile(r"\bslmgr(?:\.vbs)?[ \t]+[/-]ipk[ \t]+(?P<q>)(?P<value>[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4})\b", re.I),
        ("slmgr",),
    ),
    (_cli(r"[Uu]nity(?:-editor)?|Unity\.exe", r"-serial"), ("-serial",)),
    # Bundler's credentials for a private gem source: `bundle config [--local] HOST USER:PASSWORD`
    (
        re.compile(
            r"\bbundle[ \t]+config\b(?:[ \t]+--?\w+)*[ \t]+[\w.-]{1,100}\.[A-Za-z]{2,}[ \t]+[^\s:\"']{1,100}:"
            r"(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
        ),
        ("bundle",),
    ),
    (
        re.compile(
            # (options follow the password, or nothing: `net user NAME PASSWORD` sets it)
            r"(?m)\bnet[ \t]+user[ \t]+\S{1,100}[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"'*/][^\s\"']{0,199})(?P=q)(?:[ \t]+/\w|[ \t]*$)"
        ),
        ("net user",),
    ),
    (
        re.compile(
            r"\bcrypto[ \t]+(?:isakmp|ikev2)[ \t]+key[ \t]+(?:\d[ \t]+)?(?P<q>)(?P<value>\S{1,200})[ \t]+(?:address|hostname)\b"
        ),
        ("crypto",),
    ),
    (
        re.compile(
            r"\becho[ \t]+(?P<q>[\"']?)[\w.-]{1,64}:(?P<value>[^\s\"':]{1,200})(?P=q)[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b"
        ),
        ("chpasswd",),
    ),
    (
        re.compile(r"(?m)^[ \t]*\"[^\"\n]{1,100}\"[ \t]+\"(?P<q>)(?P<value>[^\"\n]{1,200})\"[ \t]*$"),
        ("userlist",),
    ),
)
#: SNMP communities and v3 passphrases as the documented syntaxes write them: Cisco's
#: `snmp-server community X`, Junos' `set snmp community X`, RouterOS' `/snmp community add
#: name=X`, snmpd.conf (`rocommunity X`, `com2sec name source X`, `createUser u SHA "X"`), and
#: the Net-SNMP tools' `-c`, `-A`, `-X` (`check_snmp`'s community is `-C`).
_SNMP_PASSWORDS = (
    re.compile(
        r"(?i)\bsnmp(?:-server)?[ \t]+community[ \t]+(?:add[ \t]+name=)?(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
    ),
    re.compile(r"(?im)^[ \t]*r[ow]community6?[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"),
    re.compile(
        r"(?im)^[ \t]*com2sec6?[ \t]+\S{1,100}[ \t]+\S{1,100}[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
    ),
    re.compile(
        r"\bcreateUser[ \t]+(?:-e[ \t]+\S{1,64}[ \t]+)?\S{1,64}[ \t]+(?:MD5|SHA[\w-]{0,8})[ \t]+"
        r"(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
    ),
    re.compile(
        r"\b(?:snmp(?:bulk)?(?:walk|get|getnext|set|table|delta|df|status|netstat|trap|inform)|(?P<nagios>check_snmp\w{0,20}))"
        r"\b[^\n|;&]{0,200}?[ \t]-(?:(?(nagios)C|c)|A|X)[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"'-][^\s\"']{0,199})(?P=q)"
    ),
)
#: Shared secrets and local accounts in network devices' configs, as their manuals write them:
#: IOS `radius-server host H key X`, `tacacs-server …`, Junos `radius-server H secret "X"`, an
#: indented `key [0|7] X` in a `radius server`/`aaa … radius` block, FreeRADIUS' `client … {
#: secret = X }`, IOS `username U … secret 0 X` and `enable password X`, Junos `authentication-key`.
#: (Types 5, 8 and 9 are hashes: only type 0, clear text, and 7, reversible, are taken.)
_DEVICE_SECRETS = (
    re.compile(
        r"(?i)\b(?:radius|tacacs\+?)-server\b[^\n]{0,160}?[ \t](?:key|secret)[ \t]+(?:[07][ \t]+)?"
        r"(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
    ),
    re.compile(
        r"(?i)^(?:radius|tacacs|aaa)\b[^\n]{0,120}(?:\n[ \t]+[^\n]{0,160}){0,8}?\n[ \t]+(?:key|secret|shared-secret)"
        r"[ \t]+(?:[07][ \t]+)?(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)[ \t]*$",
        re.M,
    ),
    re.compile(
        r"\bclient[ \t]+\S{1,100}[ \t]*\{[^{}]{0,400}?\bsecret[ \t]*=[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
    ),
    re.compile(
        r"(?im)^[ \t]*(?:username[ \t]+\S{1,64}(?:[ \t]+privilege[ \t]+\d{1,2})?|enable)[ \t]+(?:secret|password)"
        r"[ \t]+(?:[07][ \t]+)?(?![0-9][ \t])(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
    ),
    re.compile(r"\bauthentication-key[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"),
)
#: Oracle's `user/password@connect_identifier` as its tools take it (SQL*Plus, RMAN's `target` and
#: `catalog`, Data Pump, SQL*Loader, `CONNECT`, the thin JDBC URL), and a wallet credential
#: (`mkstore -createCredential db user password`).
_ORACLE = (
    re.compile(
        r"(?i)(?:\b(?:sqlplus|rman|expdp|impdp|sqlldr|dgmgrl)(?:[ \t]+-\w{1,10})*[ \t]+|\b(?:target|catalog|auxiliary|conn(?:ect)?)[ \t]+"
        r"|\buserid=|\bjdbc:oracle:(?:thin|oci):)[\"']?[A-Za-z_][\w$#.-]{0,63}/(?P<q>[\"']?)(?P<value>[^\s/@\"']{1,200})(?P=q)@"
    ),
    re.compile(
        r"\bmkstore\b[^\n]{0,200}?-createCredential[ \t]+\S{1,200}[ \t]+\S{1,100}[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
    ),
)
#: A Kerberos keytab in base64: the file format opens with version bytes 5 and 2 ("BQI…").
_KEYTAB = re.compile(r"(?<![A-Za-z0-9+/])BQI[A-Za-z0-9+/]{60,8000}={0,2}(?![A-Za-z0-9+/=])")
#: A Windows program's password switch (`cmdkey /pass:X`, `/password:X`, `/pwd:X`).
_WINDOWS_SWITCH = re.compile(
    r"(?i)(?<=\s)/(?:pass|password|passwd|pwd)[:=](?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
)
#: SQL's `CREATE|ALTER USER … IDENTIFIED [WITH plugin] BY 'password'` (MySQL, Oracle, Snowflake).
_SQL_IDENTIFIED = re.compile(
    r"(?i)\bIDENTIFIED[ \t]+(?:WITH[ \t]+[\"'`]?(?P<plugin>\w{1,64})[\"'`]?[ \t]+)?BY[ \t]+"
    r"(?P<q>[\"']?)(?P<value>[^\s\"']{1,200}?)(?P=q)(?=[\s;,)]|$)"
)
#: An expect script (Tcl's `expect`/`send`, Python's pexpect) answering a password prompt.
_EXPECT_SEND = re.compile(
    r"\bexpect\b[^\n]{0,80}?(?i:assw|passphrase)[^\n]{0,80}\n(?:[^\n]{0,200}\n){0,2}?[ \t]*(?:[\w.]{1,40}\.)?"
    r"send(?:line)?\b[ \t]*\(?[ \t]*(?:--[ \t]+)?(?P<q>[\"'])(?P<value>[^\"'\n]{1,200}?)(?:\\r|\\n)?(?P=q)"
)
#: A Wi-Fi network in a QR code (ZXing's `WIFI:T:WPA;S:ssid;P:password;;`, fields in any order,
#: `\;` escaped): its `P:` field.
_WIFI_QR = re.compile(
    r"\bWIFI:(?:[A-Za-z]{1,10}:(?:\\.|[^;\\\n]){0,200};){0,8}?P:(?P<q>\"?)(?P<value>(?:\\.|[^;\\\n\"]){1,200})(?P=q)(?=;|$)"
)
#: Credentials in the configs and commands of network, HSM and directory tools, as their vendors
#: document them: Cisco IOS `snmp-server user U G v3 auth sha X [priv aes 128 Y]` (not the
#: `encrypted` form, which holds localized keys), OSPF `ip ospf message-digest-key N md5 X` and
#: `authentication-key X`, key chains' `key-string X`, BGP `neighbor … password X`; tac_plus.conf's
#: `key = X`; RFC 7512 PKCS#11 URIs' `pin-value=`, OpenSC's and SoftHSM's `--pin`/`--so-pin`, AWS
#: CloudHSM's `loginHSM CU user X` (and `-p X`); Microsoft `ktpass … /pass X`; the ftp client's
#: `user NAME X` in a script fed to `ftp -n`; Consul's agent `tokens { agent = "…" }` and the
#: `SecretID` that `consul acl token create` prints.
_INFRA_PASSWORDS = (
    (
        re.compile(
            r"(?i)\bsnmp-server[ \t]+user[ \t]+\S{1,64}[ \t]+\S{1,64}[ \t]+v3[ \t]+(?!encrypted)(?:access[ \t]+\S+[ \t]+)?auth[ \t]+"
            r"(?:md5|sha\w{0,6})[ \t]+(?:[07][ \t]+)?(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
        ),
        ("snmp-server",),
    ),
    (
        re.compile(
            r"(?i)\bsnmp-server[ \t]+user[ \t]+[^\n]{0,200}?\bv3[ \t]+(?!encrypted)auth[ \t]+[^\n]{0,200}?[ \t]priv[ \t]+"
            r"(?:des|3des|aes(?:[ \t]+\d{3})?)[ \t]+(?:[07][ \t]+)?(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
        ),
        ("snmp-server",),
    ),
    (
        re.compile(
            r"(?i)\b(?:message-digest-key[ \t]+\d{1,3}[ \t]+md5|ip[ \t]+ospf[ \t]+authentication-key|key-string"
            r"|neighbor[ \t]+\S{1,64}[ \t]+password)[ \t]+(?:[07][ \t]+)?(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
        ),
        ("message-digest-key", "authentication-key", "key-string", "neighbor"),
    ),
    (
        re.compile(
            r"(?m)^(?:[^\n]{0,300}?[{,][ \t]*\"[\w.-]{1,40}\"[ \t]*:[ \t]*\"|[ \t]*)key[ \t]*=[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)"
            r"(?=\s|$)"
        ),
        ("tac_plus",),
    ),
    (re.compile(r"\bpkcs11:[^\s\"'<>]{0,300}?[?&;]pin-value=(?P<q>)(?P<value>[^\s&;\"'<>]{1,200})"), ("pin-value",)),
    (
        re.compile(
            r"\b(?:pkcs11-tool|softhsm2-util|p11tool)\b[^\n|;&]{0,300}?[ \t]--(?:so-)?pin[ \t=]+"
            r"(?P<q>[\"']?)(?P<value>[^\s\"'-][^\s\"']{0,199})(?P=q)"
        ),
        ("pkcs11-tool", "softhsm2-util", "p11tool"),
    ),
    (
        re.compile(
            r"\bloginHSM[ \t]+(?:-u[ \t]+)?(?:CO|CU|AU|PCO|PRECO|crypto-user)[ \t]+(?:-s[ \t]+)?[\w.@-]{1,64}[ \t]+(?:-p[ \t]+)?"
            r"(?P<q>[\"']?)(?P<value>[^\s\"'-][^\s\"']{0,199})(?P=q)"
        ),
        ("loginhsm",),
    ),
    (
        # a .pgpass line quoted in prose ("the password for .pgpass: host:5432:db:user:X")
        re.compile(
            r"(?<![\w.:/@-])(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,10}|localhost|\*):(?:\d{1,5}|\*):[^\s:]{1,200}:[^\s:]{1,200}:"
            r"(?P<q>)(?P<value>[^\s\"'`]{1,200}?)(?=[\s\"'`]|[.,;)]?$|[.,;)]\s)"
        ),
        ("pgpass",),
    ),
    (
        re.compile(
            r"(?i)\bktpass\b[^\n]{0,400}?[ \t][/-]pass[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"'*+-][^\s\"']{0,199})(?P=q)"
        ),
        ("ktpass",),
    ),
    (
        re.compile(
            r"\bftp\b[^\n]{0,160}<<-?[ \t]*[\"']?\w{1,20}[\"']?[ \t]*\n(?:[^\n]{0,200}\n){0,6}?[ \t]*user[ \t]+[^\s\"']{1,64}[ \t]+"
            r"(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)[ \t]*$",
            re.M,
        ),
        ("ftp",),
    ),
    (
        re.compile(
            r"\btokens[\"']?[ \t]*[:=]?[ \t]*\{[^{}]{0,400}?[\"']?\b(?:agent|default|initial_management|master|agent_recovery"
            r"|agent_master|replication|config_file_service_registration|dns)[\"']?[ \t]*[:=][ \t]*(?P<q>[\"'])"
            r"(?P<value>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?P=q)"
        ),
        ("tokens",),
    ),
    (
        re.compile(
            r"\bSecretID\){0,3}[\"']?[ \t]*[:=][ \t]*(?P<q>[\"']?)"
            r"(?P<value>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?P=q)"
        ),
        ("secretid",),
    ),
)
#: The patterns above whose match is a password, each with substrings it needs (lower case).
_COMMAND_PASSWORDS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    *_CLI_PASSWORDS,
    (_SQL_IDENTIFIED, ("identified",)),
    (_EXPECT_SEND, ("expect",)),
    (_WIFI_QR, ("wifi:",)),
    *((pattern, ("snmp", "community", "com2sec", "createuser")) for pattern in _SNMP_PASSWORDS),
    (_WINDOWS_SWITCH, ("/pass", "/pwd")),
    *_INFRA_PASSWORDS,
    *((pattern, ("radius", "tacacs", "secret", "password", "authentication-key")) for pattern in _DEVICE_SECRETS),
    *_OTHER_PASSWORDS,
    (_USER_PASS, ("-u", "-a", "creds")),
    (_MYSQL, (" -p",)),
    (_NETRC, ("machine",)),
    (_PGPASS, (":",)),
    (_HTPASSWD, ("htpasswd",)),
    (_AUTH_TUPLE, ("auth",)),
    (_LOGIN_PAIR, (" / ", "login", "cred")),
    (_LOGIN_WITH, ("log in", "log-in", "login", "logged in", "sign in", "sign-in", "signin", "signed in")),
)
#: Kubernetes Secret data: base64 values under `data:` (YAML or JSON) or printed by kubectl.
_K8S_YAML_DATA = re.compile(r"(?m)^(?P<indent>[ \t]*)data:[ \t]*\n(?P<body>(?:(?P=indent)[ \t]+[^\n]*(?:\n|$)){1,100})")
_K8S_JSON_DATA = re.compile(r"\"data\"[ \t]*:[ \t]*\{(?P<body>[^{}]{1,4000})\}")
_K8S_PAIR = re.compile(
    r"[\"']?(?P<name>[\w.-]{1,253})[\"']?[ \t]*:[ \t]*[\"']?(?P<value>[A-Za-z0-9+/]{4,4000}={0,2})[\"']?"
)
_K8S_JSONPATH = re.compile(
    r"\{\.data\.[\w.-]{1,253}\}[\"']?[^\n]{0,80}\n(?P<value>[A-Za-z0-9+/]{8,4000}={0,2})\s*(?:$|\n)"
)
_K8S_KIND = re.compile(r"[\"']?kind[\"']?[ \t]*:[ \t]*[\"']?Secret\b")
#: Ciphertext that only its controller can open: a SealedSecret's `encryptedData:` block.
#: (its lines may carry a diff's "+" or a listing's line numbers)
_LINE_LEAD = r"(?:[+-]|\d{1,6}\t|L\d{1,6}:)?"
_ENCRYPTED_DATA = re.compile(
    rf"(?m)^{_LINE_LEAD}(?P<indent>[ \t]*)encryptedData:[ \t]*\n(?:{_LINE_LEAD}(?P=indent)[ \t]+[^\n]*(?:\n|$)){{1,100}}"
)

#: HTTP cookies: a `Cookie:` header's pairs, the first pair of `Set-Cookie:`, curl's `-b`, and
#: a `cookies = {…}` mapping. A session cookie is a bearer credential.
_COOKIE_HEADER = re.compile(
    r"(?i)(?:\b(?P<set>set-)?cookie[\"']?[ \t]*(?::|=(?=[\"']))|(?<=\s)(?:-b|--cookie))[ \t]*[\"']?(?P<pairs>[^\n\"']{1,2000})"
)
#: A session cookie by its framework's documented name, as a bare `name=value` pair anywhere:
#: Express's `connect.sid`, Java servlets' `JSESSIONID`, PHP's `PHPSESSID`, Django's `sessionid`,
#: Rails' and Laravel's `…_session`, `__Secure-` and `__Host-` cookies.
_SESSION_COOKIE = re.compile(
    r"(?<![\w.-])(?:connect\.sid|(?i:jsessionid|phpsessid|sessionid)|[A-Za-z][\w.-]{0,40}_session|__(?:Secure|Host)-[\w.-]{1,60})"
    r"=(?P<value>[^\s;,\"'&<>]{16,4000})"
)
_COOKIE_PAIR = re.compile(r"[ \t]*(?P<name>[^=;\s]{1,200})=(?P<value>[^;\s]{1,4000})")
_COOKIE_DICT = re.compile(r"(?i)\bcookies[\"']?[ \t]*[:=][ \t]*\{(?P<body>[^{}]{1,2000})\}")
_DICT_PAIR = re.compile(r"[\"'](?P<name>[^\"'\n]{1,200})[\"'][ \t]*:[ \t]*[\"'](?P<value>[^\"'\n]{1,4000})[\"']")
#: A URL's signature parameter (Azure SAS `sig=`, S3 and GCS presigned URLs): it grants access.
#: (In XML and HTML the "&" between parameters is written `&amp;`.)
_URL_SIGNATURE = re.compile(
    r"(?i)(?:[?&]|&amp;)(?:sig|signature|x-amz-signature|x-goog-signature)=(?P<value>[^&\s\"'#<>]{16,600})"
)
#: A query parameter that carries an API key or a token (`?key=…`, `&access_token=…`, and
#: OpenWeather's `appid`): the URL is the credential's transport.
_URL_KEY = re.compile(
    r"(?i)(?:[?&]|&amp;)(?:key|api[_-]?key|access[_-]?token|token|auth[_-]?token|secret|client[_-]?secret|appid)"
    r"=(?P<value>[^&\s\"'#<>]{16,600})"
    # an Azure Functions key (`?code=`): base64url, as long as a key and padded
    r"|[?&]code=(?P<code>[A-Za-z0-9_-]{40,100}==)(?![\w=])"
)
#: Auth headers whose names do not say so, as their vendors document them (Honeycomb's team key),
#: in a header or an OpenTelemetry exporter's `OTEL_EXPORTER_OTLP_HEADERS` list.
_VENDOR_HEADER = re.compile(r"(?i)\bx-honeycomb-team[\"']?[ \t]*[:=][ \t]*[\"']?(?P<value>[A-Za-z0-9]{22,64})\b")
#: A line of a Netscape cookie file (curl's `-c`, browser exports): domain, flag, path, secure,
#: expiry, name, value, separated by tabs.
_COOKIE_JAR = re.compile(
    r"(?m)^[^\t\n]{1,253}\t(?:TRUE|FALSE)\t[^\t\n]{1,200}\t(?:TRUE|FALSE)\t\d{1,12}\t(?P<name>[^\t\n]{1,200})\t(?P<value>[^\t\n]{1,4000})$"
)
#: A Kubernetes bootstrap token (`kubeadm join --token`, documented as `[a-z0-9]{6}.[a-z0-9]{16}`).
_BOOTSTRAP_TOKEN = re.compile(r"(?<![\w.-])(?P<value>[a-z0-9]{6}\.[a-z0-9]{16})(?![\w.-])")
#: A command line's user (`-u`, `-U`) and then `-p VALUE`: the user's password (cqlsh, mongo,
#: influx…; a number is a port: `docker run -u 1000 -p 8080:80`). mysql's `-p VALUE` prompts.
_USER_THEN_P = re.compile(
    r"(?<=\s)-[uU](?:[ \t]+|=)?[\"']?[^\s\"'-][^\s\"']{0,100}[\"']?[ \t][^\n]{0,160}?(?<=\s)-p(?:[ \t]+|=)"
    r"(?P<q>[\"']?)(?![\d:.]+(?:[\s\"']|$))(?P<value>[^\s\"'-][^\s\"']{0,199})(?P=q)"
)
#: The gossip encryption key of a Consul or Nomad agent's config (`encrypt = "…"`, `"encrypt": "…"`).
_ENCRYPT_KEY = re.compile(
    r"(?<![\w.-])[\"']?encrypt[\"']?[ \t]*[=:][ \t]*[\"'](?P<random>[A-Za-z0-9+/]{22,400}={0,2})[\"']"
)
#: Registry and cloud logins: `docker login -p …`, `az login --service-principal -p …`.
_LOGIN_PASSWORD = re.compile(
    r"\b(?:az|docker|podman|nerdctl|buildah|skopeo|helm|oras|crane|cf|oc|conan)\b[^\n]{0,40}?\blogin\b[^\n]{0,200}?"
    r"(?:[ \t]-p|--password|--secret)(?:[ \t]+|=)(?P<q>[\"']?)(?P<value>[^\s\"']{1,400}|(?<=[\"'])[^\"'\n]{1,400})(?P=q)"
)
#: `echo … | docker login --password-stdin`: what is echoed is the password.
_STDIN_PASSWORD = re.compile(
    r"\becho[ \t]+(?:-n[ \t]+)?(?P<q>[\"']?)(?P<value>[^\s\"'|]{1,400})(?P=q)[ \t]*\|"
    r"(?:[^\n|]{0,120}(?:--password-stdin|--with-token|\blogin\b)|[ \t]*sudo[ \t]+(?:-[A-Za-z]+[ \t]+)*-[A-Za-z]*S\b"
    r"|[ \t]*(?:sudo[ \t]+)?(?:kinit|vncpasswd|smbpasswd|passwd[ \t]+--stdin)\b"
    r"|[^\n|]{0,40}\bgpg2?\b[^\n|]{0,120}--passphrase-fd[ \t]+0\b)"
)
#: Go's MySQL DSN: `user:password@tcp(host:port)/db` (the password may hold an "@").
_GO_DSN = re.compile(r"\b[\w.-]{1,64}:(?P<value>[^\s\"'`]{1,200})@(?:tcp|unix)\(")
#: An API key as the user of HTTP Basic with no password (`curl -u KEY:`), as Stripe,
#: Mixpanel and others document it.
#: (Freshdesk documents "KEY:X", any letter as the unused password)
_USER_KEY = re.compile(r"(?:(?<=\s)-u|--user)(?:[ \t]+|=)[\"']?(?P<random>[A-Za-z0-9_-]{16,200}):X?(?=[\"']?(?:\s|$))")
#: `openssl enc -K HEX` (a raw key), `-pass pass:…` and `-k …` (passphrases).
_OPENSSL_KEY = re.compile(
    r"\bopenssl[ \t]+[^\n]{0,160}?(?:[ \t]-K[ \t]+(?P<hex>[0-9A-Fa-f]{16,128})\b|[ \t]-(?:pass|passin|passout)[ \t]+pass:(?P<pass>[^\s\"']{1,200})|[ \t]-k[ \t]+(?P<k>[^\s\"'-][^\s\"']{0,199}))"
)
#: `aws ssm put-parameter --type SecureString --value …`: the type says the value is secret.
_SECURE_STRING = re.compile(
    r"\bput-parameter\b(?=[^\n]{0,400}SecureString)[^\n]{0,400}?--value[ \t=]+(?P<q>[\"']?)(?P<value>[^\s\"']{1,400})(?P=q)"
)
#: Postfix `sasl_passwd`: `[smtp.host]:587 user:password`.
_SASL_PASSWD = re.compile(
    r"(?m)(?:^|(?<=[ \t]))\[[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}\](?::\d{1,5})?[ \t]+[^\s:]{1,200}:(?P<value>\S[^\n]{0,199}?)[ \t]*$"
)
#: A key file printed on a terminal: `$ cat config/master.key` and its one line.
_CAT_SECRET_FILE = re.compile(r"\bcat[ \t]+(?P<file>[^\s|;&<>]{1,200})[ \t]*\n(?P<value>[^\s]{6,400})[ \t]*(?:\n|$)")
#: A value written into a file (`echo '…' > ~/.vault_pass.txt`, `… | tee token`): the file's name says what it is.
_ECHO_INTO_FILE = re.compile(
    r"\b(?:echo(?:[ \t]+-[neE]{1,2})?|printf(?:[ \t]+[\"']%s[^\"'\n]{0,4}[\"'])?)[ \t]+"
    r"(?:(?P<q>[\"'])(?P<value>[^\s\"'`]{6,400})(?P=q)|(?P<bare>[^\s\"'$`|;&<>]{6,400}))"
    r"[ \t]*(?:(?:>>?|\|[ \t]*(?:sudo[ \t]+)?tee(?:[ \t]+-a)?)[ \t]*(?P<file>[^\s|;&<>]{1,200})"
    # or piped into a secret store's write, which reads the secret from stdin
    r"|\|[ \t]*(?P<store>gcloud[ \t]+secrets[ \t]+(?:create|versions[ \t]+add)|aws[ \t]+secretsmanager"
    r"|vault[ \t]+(?:kv[ \t]+)?(?:put|write)|(?:docker|podman)[ \t]+secret[ \t]+create|kubectl[ \t]+create[ \t]+secret"
    r"|gh[ \t]+secret[ \t]+set|(?:npx[ \t]+)?wrangler[ \t]+(?:pages[ \t]+)?secret[ \t]+put|vercel[ \t]+env[ \t]+add"
    r"|fly(?:ctl)?[ \t]+secrets[ \t]+import|az[ \t]+keyvault[ \t]+secret[ \t]+set|doppler[ \t]+secrets[ \t]+set"
    r"|firebase[ \t]+functions:secrets:set|supabase[ \t]+secrets[ \t]+set)\b)"
)
_CAT_FILE = re.compile(r"\bcat[ \t]+([^\s|;&<>]{1,200})[ \t]*$")
_SECRET_FILE = re.compile(r"(?i)(?:key|secret|token|pass(?!wd$)|credential|creds|cookie)[^/]*$")
_PUBLIC_FILE = re.compile(r"(?i)\.(?:pub|crt|cer|pem|csr)$|public")
#: The key argument of a client or a MAC: `Client("…")`, `hmac.new(b"…")`, `jwt.encode(c, "…")`,
#: `Fernet(b"…")`, an SDK's class named as its package; and a variable named a key or a secret set
#: from a literal (`key = bytes.fromhex("…")`, JupyterHub's `c.JupyterHub.cookie_secret = bytes.fromhex(…)`).
_KEY_CALL = re.compile(
    r"(?:\b(?:[A-Za-z_][\w.]{0,60})?(?:Client(?:V\d)?|Api|API|Server)(?:\.[Ii]nit|::new|\.new)?|\bcreate_?[cC]lient"
    r"|\bSearchClient\.create|\balgoliasearch|\bFernet"
    r"|\b(?P<pkg>[a-z]\w{2,30})\.(?=[A-Z])(?i:(?P=pkg))"  # an SDK's own class: `smartsheet.Smartsheet("…")`
    r"|\brequire\([ \t]*[\"'][\w@/.-]{1,80}[\"'][ \t]*\)"  # a package's factory: require('twilio')(SID, TOKEN)
    r"|(?P<auth>\b(?:[A-Za-z_][\w.]{0,60})?(?:Auth(?:entication)?|Credentials?|Signer)(?:::new|\.new)?"
    r"|\bhmac\.new|\bhmac\.HMAC|\bjwt\.(?:encode|decode|sign|verify))"
    # a database connection's (dsn or host, user, password): PHP's PDO and mysqli, JDBC
    r"|(?P<login>\bPDO|\bmysqli(?:_connect)?|\bmysql_connect|\bDriverManager\.getConnection)"
    # a connection's (server, user, password) (ldap3's `Connection`, DB-API `connect`), a login's
    # or a bind's (user, password) (`ftplib`, `smtplib`, `simple_bind_s`)
    r"|(?P<connect>\bConnection|\b(?:[\w.]{0,40}\.)?connect)|(?P<bind>\.(?:login|simple_bind_s|simple_bind|bind_s|bind|username_pw_set)))"
    r"[ \t]*\((?P<args>(?:[^()\n]|\([^()\n]{0,200}\)){1,400})\)"
)
_SETTER = re.compile(
    r"(?:\b(?:set|put|add|Set|Put|Add)[A-Za-z]{0,20}|\bsetdefault)\([ \t]*\n?[ \t]*[\"'](?P<name>[\w.:/-]{1,120})[\"'][ \t]*,"
    r"\s{0,40}[\"'](?P<value>[^\"'\s]{1,400})[\"']"
    r"|(?<![\w$])(?P<fn>(?:[Ss]et_?|[Ww]ith_?)?(?:[Pp]ass(?:word|wd|phrase)|[Ss]ecret|[Tt]oken|[Aa]pi_?[Kk]ey|[Aa]ccess_?[Kk]ey))"
    r"\([ \t]*[\"'](?P<value2>[^\"'\s]{1,400})[\"'][ \t]*\)"
)
_BASIC_AUTH_CALL = re.compile(
    r"\b\w{0,20}(?:Basic|Digest)Auth(?:entication)?[ \t]*\([ \t]*[\"'][^\"'\n]{1,100}[\"'][ \t]*,[ \t]*"
    r"[\"'](?P<value>[^\"'\s]{1,200})[\"'][ \t]*\)"
)
_LITERAL = re.compile(r"(?:[bB](?=[\"'`]))?(?P<q>[\"'`])(?P<value>[^\"'`\n]{1,400})(?P=q)")
_KEY_LITERAL = re.compile(
    r"\b\w{0,40}(?:key|secret)\w{0,20}[ \t]*=[ \t]*(?:bytes\.fromhex|(?:binascii\.)?unhexlify|(?:base64\.)?(?:urlsafe_)?b64decode"
    # (the same in Node, .NET and Go: a key's bytes made from a literal)
    r"|Buffer\.from|(?:System\.Text\.)?Encoding\.\w{2,8}\.GetBytes|Convert\.FromBase64String|hex\.DecodeString"
    r"|base64\.\w{0,12}Encoding\.DecodeString|\[\]byte)"
    r"\([ \t]*[bB]?[\"'](?P<value>[A-Za-z0-9+/=_-]{32,400})[\"']",
    re.I,
)
#: A chat line's speaker before what they say: "[16:06:09] Sam: ", "sam: ", or IRC's
#: "15:26 <sam> " (a nick's channel-mode sign too): the name is in `speaker` or `nick`.
_SPEAKER_HEAD = (
    r"(?:(?:\[[^\]\n]{1,20}\][ \t]*)?(?P<speaker>[\w.@-]{1,30}):"
    r"|(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?[ \t]+)?<[@+%&~]?(?P<nick>[\w.@-]{1,30})>)[ \t]+"
)
#: A chat reply that is a value, after a line that names a secret ("what's the VPN pw?").
_CHAT_REPLY = re.compile(
    rf"\n{_SPEAKER_HEAD}(?:(?:here|it's|it is|use|try|sure|ok)[:,]?[ \t]+){{0,2}}"
    r"(?:\w{1,12}!?[ \t]*(?:->|=>)[ \t]*)?[\"'`]?(?P<value>[^\s\"'`]{6,400})[\"'`]?(?=[ \t]|\n|$)"
)
_SPEAKER = re.compile(_SPEAKER_HEAD)
#: A chat line that only acknowledges a question ("[14:58] kenji: yep").
_ACK_LINE = re.compile(
    _SPEAKER.pattern + r"(?i:yep|yes|yeah|yup|sure|ok|okay|one sec|sec|got it|hang on"
    r"|wait|checking|let me (?:check|look)|on it|here)[ \t.!,…:]*"
)
#: WordPress's application passwords: 24 letters and digits, shown in six groups of four.
_WP_APP = r"(?=[^\n]{0,28}[0-9A-Z])[A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5}"
#: The same reply when it is a passphrase or an app password's groups, the whole rest of its line.
_CHAT_PHRASE = re.compile(
    rf"\n{_SPEAKER_HEAD}[\"'`]?"
    rf"(?P<value>{_WP_APP}|[a-z]{{4}} [a-z]{{4}} [a-z]{{4}} [a-z]{{4}}|[a-z]{{3,10}}(?:[ \t][a-z]{{3,10}}){{3,11}})"
    r"[\"'`]?[ \t]*(?=\n|$)"
)
#: A question line about a password or a login ("what's the pw for the test VM?", "How do I log
#: into staging?"), then its answer's lines ("Ivana: sec", "Ivana: …", "> …" quoted).
_QUESTION = re.compile(r"(?m)^[^\n?]{4,200}\?[*_]*(?:[ \t]+[^\n?]{1,60})?[ \t]*$")
_ANSWER_LINE = re.compile(
    r"\n+(?:>[ \t]*)*(?:\[[^\]\n]{1,20}\][ \t]*)?(?:[\w.@-]{1,30}(?:[ \t]+\([^()\n]{1,30}\))?:[ \t]+|<[\w.@-]{1,30}>[ \t]+)?"
    r"[ \t]*(?P<said>[^\n]{1,300})"
)
#: A chat export's header line: the speaker and the time, the message on the lines below.
_SPEAKER_LINE = re.compile(r"[^\W\d][\w .'-]{0,40}?[ \t]+\d{1,2}:\d{2}(?:[ \t]*[AaPp][Mm])?[ \t]*")
_FILLER = re.compile(
    r"(?i)(?:one[ \t]+)?(?:sec|moment|min(?:ute)?|hang[ \t]+on|hold[ \t]+on|wait|checking|let me check|sure|ok)\W{0,3}"
)
_DIGEST_PREFIX = re.compile(r"(?i)(?:sha\d{0,3}|md5|blake2b?)[-:=]")
_PROSE_WORD = re.compile(r"(?<![\w/.-])[A-Za-z][a-z]{1,15}(?![\w/.-])")
#: A word of prose between spaces that may be a token.
_RANDOM_WORD = re.compile(r"(?<![^\s(\"'`])(?P<value>[A-Za-z0-9+/_.=-]{24,200})(?=[\s)\"'`.,;:!?]|$)")
_ID_BEFORE = re.compile(
    r"(?i)\b(?:id|ids|request|correlation|trace|span|commit|sha\d*|md5|digest|hash|etag|nonce|salt|cursor|page|code"
    r"|error|signature|fingerprint)\b\W{0,3}$"
)
_TAIL_LINE = re.compile(r"(?m)^[^\n:]{0,200}:[^\n]{0,200}?:[ \t]+[\"'`]?(?P<value>[^\s\"'`]{6,200})[\"'`]?[ \t]*$")
#: What makes a key named so a credential when its value is a UUID ("OHIP_APP_KEY"; an
#: idempotency, partition or public key is not one).
_UUID_KEY_IDS = frozenset(
    # (and a server's cookie key: RStudio Server's `secure-cookie-key` is a UUID)
    ["app", "access", "auth", "account", "master", "private", "signing", "subscription", "cookie"]
)
_API_KEY_WORDS = re.compile(r"(?i)\bapi[ _-]?key|\btoken")
#: An answer's value at the end of its sentence, after a colon ("use the shared one: …").
_TAIL_VALUE = re.compile(r":[ \t]+[\"'`]?(?P<value>[^\s\"'`]{6,200})[\"'`]?[.,;!]?[ \t]*$")
_ANSWER_VALUE = re.compile(r"[\"'`]?(?P<value>[^\s\"'`]{6,600})[\"'`]?(?:[ \t]+[-—(]|[.,;!]?[ \t]*$)")
#: An answer that is a quoted phrase ("`tundra ripple orbit maple` (delete this after)").
_QUOTED_ANSWER = re.compile(
    r"(?P<q>[\"'`])(?P<value>[a-z]{3,10}(?:[ \t][a-z]{3,10}){2,9})(?P=q)(?:[ \t]+[-—(]|[.,;!]?[ \t]*$)"
)
#: An `otpauth://` URI (the Key Uri Format authenticator apps scan): its `secret=` is the seed;
#: Google Authenticator's export (`otpauth-migration://offline?data=…`) holds every seed.
_OTPAUTH = re.compile(
    r"(?i)\botpauth://[ht]otp/[^\s?]{0,300}\?(?:[^\s&#]{0,300}&){0,10}?secret=(?P<value>[A-Z2-7]{8,256}=*)"
    r"|\botpauth-migration://offline\?data=(?P<data>[A-Za-z0-9%+/_-]{16,4000}=*)"
)
#: Keys by their documented shapes, found where a word nearby says what they are:
#: - a wallet's mnemonic (BIP39: 12 to 24 lower-case words) after "mnemonic", "seed", "phrase"…;
#: - a Solana keypair file (`solana-keygen`'s id.json: a JSON array of 64 bytes);
#: - a BitLocker recovery password (eight groups of six digits);
#: - a Mullvad VPN account number (16 digits, the account's only credential);
#: - an OpenVPN static key (`-----BEGIN OpenVPN Static key V1-----`, lines of hex);
#: - a PEM private key in base64 (Kubernetes' `client-key-data`, a secret's data).
_MNEMONIC = re.compile(r"(?<![\w-])(?P<value>[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})(?![\w-])")
_MNEMONIC_CUE = re.compile(
    r"(?i)(?<![a-z])(?:mnemonic|seed|(?:recovery|secret|backup|wallet)[ \t_-]+(?:phrase|words)|phrase|restore|wallet)(?![a-z])"
)
#: Words that join clauses: a run of words with one is a sentence, not a passphrase ("… before
#: running make train"). (Kept apart from the above: BIP39's list holds some of them.)
_JOINING_WORDS = (
    *("before", "after", "until", "while", "because", "about", "without", "during", "through", "since"),
    *("under", "over", "within", "unless", "though", "whether", "but"),
)
_CLAUSE_WORDS = frozenset([*_JOINING_WORDS, "minimum", "maximum", "characters", "required"])
#: Words of prose that no wallet word list holds: a run with one is a sentence.
_PROSE_WORDS = frozenset(
    [
        *("the", "and", "for", "with", "that", "this", "you", "are", "was", "not", "but", "have", "from", "our"),
        *("its", "can", "will", "into", "has", "then", "when", "what", "your", "them", "they", "were", "been"),
        *("which", "would", "should", "could", "there", "their", "here", "these", "those", "than", "only"),
    ]
)
#: Small words of prose in other languages: a quoted sentence in a locale file is no passphrase
#: ("Les mots de passe ne correspondent pas").
_FOREIGN_PROSE = frozenset(
    [
        *("de", "le", "la", "les", "ne", "pas", "un", "une", "des", "du", "et", "est", "pour", "votre", "vous"),
        *("der", "die", "das", "und", "nicht", "ist", "ein", "eine", "sie", "ihr", "ihre", "mit", "zu", "von"),
        *("el", "los", "las", "que", "por", "para", "con", "su", "no", "es", "se", "del", "een", "het", "van"),
        *("niet", "uw", "je", "il", "di", "che", "non", "do", "da", "em", "os", "na", "nie", "jest", "się"),
        *("ve", "bir", "bu", "için", "ile", "değil", "asla", "çok", "daha", "gibi", "olarak", "her"),
    ]
)
_KEYPAIR = re.compile(r"\[(?P<value>[ \t]*\d{1,3}(?:[ \t]*,[ \t]*\d{1,3}){63}[ \t]*)\]")
_BITLOCKER = re.compile(r"(?<![\d-])(?P<value>\d{6}(?:-\d{6}){7})(?![\d-])")
_MULLVAD = re.compile(r"(?i)\b(?:mullvad|vpn)\b[^\n]{0,80}?\b(?P<value>\d{4}[ \t]?\d{4}[ \t]?\d{4}[ \t]?\d{4})\b")
_OPENVPN_KEY = re.compile(
    r"-----BEGIN OpenVPN Static key V1-----\s+(?:[0-9a-fA-F]{32}\s+){4,}-----END OpenVPN Static key V1-----"
)
_B64_PRIVATE_KEY = re.compile(r"\bLS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}")
#: Words that say a value is a one-time-password seed.
_OTP_WORD = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:[th]?otp|2fa|mfa|two[- ]factor|authenticator|setup[ \t]+key|seed)(?![A-Za-z0-9])"
)
_OTP_NEEDS = ("otp", "2fa", "mfa", "factor", "authenticator", "setup", "seed")
#: A base32 seed (RFC 4648's alphabet), whole or in groups of four, in one case.
_BASE32 = re.compile(
    r"(?<![\w/+.-])(?P<value>[A-Z2-7]{16,128}|[a-z2-7]{16,128}|[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,31}"
    r"|[a-z2-7]{4}(?: [a-z2-7]{4}){3,31})=*(?![\w/+-]|\.[\w/+-])"
)
#: A list of backup codes: its heading, and one code (after a bullet or a number, if any).
_CODES_INTRO = re.compile(r"(?i)\b(?:backup|recovery|scratch|emergency|one[- ]time|2fa|mfa|otp)[ \t-]+codes?\b")
_CODE_ITEM = re.compile(r"[ \t\n,;]*(?:(?:[-*•]|\d{1,2}[.)])[ \t]+)?(?P<code>[^\s,;]{1,40})")
#: (Google prints its backup codes as two groups of four digits; Bitwarden's recovery code is 32
#: capitals and digits)
_ONE_CODE = re.compile(
    r"(?<![\w.:/-])(?:[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12}){1,3}|\d{6,12}|\d{4} \d{4}|(?=[A-Z]{0,39}\d)[A-Z0-9]{16,40})(?![\w/-])"
)
_CODE = re.compile(r"[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{3,12}){0,3}")
_SPACED_CODE = re.compile(r"[\"'`]?(?P<value>\d{4} \d{4})(?![\w-])")
_DASHED_CODE = re.compile(r"[\"'`]?(?P<value>[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12}){1,3})(?![\w-])")
#: A chat reply that is a user and a password ("yes, app_rw and …", "deploy / …"), and words
#: of a question about logging in.
#: A PIN or a keypad's code: a run of digits on a line that names one ("SIM PUK 8693…", "door code
#: changed: 8164…#", "… is the new code for the bike room"). "code" alone is a build's, an exit's
#: or a zip's, so it needs a word for a lock on its line.
_PIN_WORD = re.compile(
    r"\b(?:PIN|PUK2?|(?i:passcode|pin[ \t-]?code|unlock[ \t]+code))\b"
    # a setting named one, given its value ("turnstile_master_pin=", "TURNSTILE_MASTER_PIN = ")
    r"|\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_(?:pin|PIN)[\"']?[ \t]*[:=]"
)
_PHONE_BEFORE = re.compile(r"\+\d{1,3}(?:[ .-]\(?\d{1,4}\)?){0,5}[ .-]$")
_DIGIT_GROUP_BEFORE = re.compile(r"\d[ \t]$")
_DIGIT_GROUP_AFTER = re.compile(r"[ \t]\d")
_CIPHERTEXT_WORDS = frozenset(["encrypted", "hashed", "sealed", "ciphered", "obfuscated", "ciphertext"])
#: A message topic or a key path whose last part is the name, then its value ("mosquitto_sub -v"
#: prints "coop/config/1837312/owm_api_key 6ea3…"; `etcdctl get -w simple` and Consul print the same)
_TOPIC_VALUE = re.compile(r"[\w.+-]+(?:/[\w.+-]+)+[ \t]+[^\s]{8,400}[ \t]*")
_SETTING_AFTER = re.compile(r"[\"']?[ \t]*[:=]")
#: A hash function called on a name ("sha256(key)"), and a word that calls one on what follows
#: (password hashers too: "bcrypt(password)").
_HASH_FUNCTIONS = r"sha\d{0,3}|md5|hash|digest"
_HASH_CALL = re.compile(rf"(?i)(?:{_HASH_FUNCTIONS})\($")
_HASH_CALL_WORD = re.compile(rf"(?i)(?:{_HASH_FUNCTIONS}|bcrypt|argon2\w{{0,2}})\(")
#: (a header or field named a signature, "x-xero-signature:", holds an HMAC of a payload, no key)
_DIGEST_WORD = re.compile(
    r"(?i)sha-?(?:1|224|256|384|512)|md5|digests?|checksums?|hash(?:es)?|(?:[a-z0-9]+-)+signature:?"
)
_NUMBERED_BEFORE = re.compile(
    r"(?i)\b(?:badge|card|ticket|order|invoice|employee|room|seat|flight|gate|case|job|batch|lot|serial|unit|no\.|nr\.?|#)[ \t]*#?$"
)
_GROUPED_ID_BEFORE = re.compile(r"\bID[ \t]*[:#]?[ \t]*(?:\d{2,5}[ \t-]){1,4}$")
_DIAL_TAIL = re.compile(r"[\d \t]{0,30}#")
_DIAL_IN = re.compile(r"(?i)\b(?:dial|phone|conference|meeting|bridge|call)")
#: (and in other languages: Spanish and Portuguese, Italian, Polish and Czech, Finnish, Greek,
#: Russian; Dutch and German write "Alarmcode" as one word)
_CODE_WORD = re.compile(r"(?i)\b(?:code|combination|combo|c[óo]digo|codice|kod|kód|koodi|κωδικός|код)\b|alarmcode")
_LOCK_WORD = re.compile(
    r"(?i)\b(?:door|alarm|disarm|gate|safe|tresor|lock(?:box|er)?|keypad|entry|garage|building|room|cabinet|vault"
    r"|padlock|voicemail|mailbox|alarma|allarme|alarme|larm|alarmcode|puerta|porta|tür|deur|porte)\b"
)
_LOWER_PIN = re.compile(r"(?i)\bpin\b")
#: An INI section named for a secret, then (within six lines, before another section) the key that
#: holds its value (`SecretScanner._sections`).
_SECTION_VALUE = re.compile(
    r"(?m)^\[(?P<name>[A-Za-z][\w.-]{2,60})\][ \t]*\n(?:(?!\[)[^\n]*\n){0,6}?"
    r"(?:Default|Value|DefaultValue|CurrentValue)[ \t]*=[ \t]*(?P<value>\S{6,200})[ \t]*$"
)
#: The head of a password hash in the PHC string format, up to a parameter's digits.
_HASH_PARAMS_BEFORE = re.compile(r"(?<!\S)\$[a-z][a-z0-9-]{1,15}\$[^\s$]*(?:\$[^\s$]*)?=$")
_PIN_DIGITS = re.compile(r"(?<![\w.,:/*+#$€£-])(?:\d{4,12}|\d{3,6}-\d{3,6})(?:#(?!\w))?(?![\w/%-]|[.,:]\d)")
_CHAT_PAIR = re.compile(
    rf"\n{_SPEAKER_HEAD}(?:(?:yes|yeah|yep|sure|ok|here|try)[,:!.]?[ \t]+){{0,2}}"
    r"[\"'`]?[\w.@+-]{1,64}[\"'`]?(?:[ \t]+(?:and|&)[ \t]+|[ \t]*/[ \t]*|,[ \t]*)[\"'`]?(?P<value>[^\s\"'`]{6,200})[\"'`]?"
    r"[ \t]*(?=\n|$)"
)
#: gcloud's `--set-secrets` / `--update-secrets` list of `ENV_OR_PATH=SECRET:VERSION` references.
_SECRETS_FLAG = re.compile(
    r"--(?:set|update)-secrets[= ][\"']?(?P<list>[^\s=,\"']{1,200}=[\w-]{1,255}:(?:latest|\d{1,6})"
    r"(?:,[^\s=,\"']{1,200}=[\w-]{1,255}:(?:latest|\d{1,6}))*)(?![^\s,\"'])"
)
_SETTING_NAME = re.compile(r"[A-Za-z][\w.-]{0,40}[=:][ \t]*")
#: A config line: a name, its separator and a value ("redis_password: ${REDIS_PASSWORD}").
_SETTING_LINE = re.compile(r"[ \t]*[\"']?([A-Za-z_][\w.-]{0,60})[\"']?[ \t]*[:=][ \t]*\S")
_LOGIN_WORDS = re.compile(r"(?i)\b(?:log(?:ged)?[ \t-]?in(?:to)?|sign[ \t-]?in(?:to)?|login|creds|credentials)\b")
#: Google's app passwords: 16 lower-case letters, shown as four groups of four.
#: A passphrase of words with spaces between them, after a password's name: whole inside quotes
#: ("BORG_PASSPHRASE=\"…\""), or unquoted when it ends its line or clause ("passphrase: w w w w").
_QUOTED_PHRASE = re.compile(r"(?P<value>[^\s\"'`]{1,40}(?:[ \t][^\s\"'`]{1,40}){1,11})(?=[\"'`])")
_BRACKETED_PHRASE = re.compile(r"(?P<value>[^\s\"'`()«»“”]{1,40}(?:[ \t][^\s\"'`()«»“”]{1,40}){2,11})(?=[ \t]?[»”)])")
_ANNOUNCED_PHRASE = re.compile(r"(?P<value>[a-z]{3,10}(?:[ \t][a-z]{3,10}){3,9})(?=[ \t]*(?:$|\n|[.;,)(—]))")
_DATE_IN = re.compile(r"\d{4}-\d{2}-\d{2}")
#: A word of a diceware passphrase: not a word that joins clauses ("… before running make train").
_CLAUSE = rf"(?i:{'|'.join(_JOINING_WORDS)})\b"
_NOT_CLAUSE = rf"(?!{_CLAUSE})"
_LOWER_WORDS = rf"{_NOT_CLAUSE}[a-z]{{3,10}}(?:[ \t]{_NOT_CLAUSE}[a-z]{{3,10}}){{3,9}}"
_TITLE_WORDS = rf"{_NOT_CLAUSE}[A-Z][a-z]{{2,9}}(?:[ \t]{_NOT_CLAUSE}[A-Z][a-z]{{2,9}}){{3,9}}"
_WORD_PHRASE = re.compile(
    # (words all in lower case or all capitalised, as diceware generators print them)
    rf"(?P<value>(?:{_LOWER_WORDS}|{_TITLE_WORDS})(?:[ \t]\d{{1,4}})?)"
    r"(?=[ \t]*(?:$|\n|[—(;]|--|[ \t]-[ \t]|\.[ \t]*$)|[ \t]+[a-z_]{2,30}=|[ \t]+"
    rf"{_CLAUSE})"  # (logfmt: the next field ends it; so does a word that joins clauses)
)
#: The same after a separator ("password = w w w w, then …"): a comma ends it too.
_SEP_PHRASE = re.compile(
    rf"(?P<value>(?:{_LOWER_WORDS}|{_TITLE_WORDS})(?:[ \t]\d{{1,4}})?)"
    r"(?=[ \t]*(?:$|\n|[—(;,]|--|[ \t]-[ \t]|\.[ \t]*$)|[ \t]+[a-z_]{2,30}=|[ \t]+"
    rf"{_CLAUSE})"
)
_LONE_PHRASE = re.compile(r"(?m)^[ \t]*(?P<value>[a-z]{3,10}(?:[ \t][a-z]{3,10}){3,9}(?:[ \t]\d{1,4})?)[ \t]*$")
_CLAUSE_END = re.compile(r"[ \t]*(?:$|\n|[.,;:!?)(—–]|--)|[ \t]+[A-Z\u3000-\u9fff]")
_LONE_APP = re.compile(rf"(?m)^[ \t]*(?P<value>{_WP_APP}|[a-z]{{4}} [a-z]{{4}} [a-z]{{4}} [a-z]{{4}})[ \t]*$")
_APP_PASSWORD = re.compile(
    rf"[\"'`]?(?P<value>{_WP_APP}|[a-z]{{4}} [a-z]{{4}} [a-z]{{4}} [a-z]{{4}}|[a-z]{{16}})(?![\w-])"
)
#: Sixteen random letters carry about 3.5 bits each or more; sixteen letters of words less.
_APP_ENTROPY = 3.4
_WP_APP_VALUE = re.compile(_WP_APP)
_APP_SHAPE = re.compile(
    rf"(?<![\w-])(?P<value>{_WP_APP}|[a-z]{{4}} [a-z]{{4}} [a-z]{{4}} [a-z]{{4}}|[a-z]{{16}})(?![\w-])"
)
#: "App password", "application-specific password", and the same in a setting's name (GMAIL_APP_PASSWORD).
_APP_CUE = re.compile(r"(?i)(?<![a-z])app(?:lication)?[ \t_-]+(?:specific[ \t_-]+)?password")
#: The symbols password rules ask for (`_chosen_password`).
_PASSWORD_SYMBOLS = frozenset("!#$%&*+=?@^~")
#: Apple's app-specific passwords: four groups of four lower-case letters joined by hyphens.
_APPLE_APP_PASSWORD = re.compile(r"^[a-z]{4}-[a-z]{4}-[a-z]{4}-[a-z]{4}$")
#: A passphrase of words ("maple.lantern.orange.walnut", "zebra_silver_glacier").
_PASSPHRASE = re.compile(
    r"^[a-z]{3,12}\d{0,4}(?P<sep>[._-])[a-z]{3,12}\d{0,4}(?:(?P=sep)[a-z]{3,12}\d{0,4}){1,6}(?:(?P=sep)\d{1,4})?$", re.I
)
_SECRET_WORDS = frozenset(
    [
        "pass",
        "passwd",
        "password",
        "secret",
        "secrets",
        "token",
        "tokens",
        "key",
        "keys",
        "cred",
        "creds",
        "credentials",
        "passkey",
        "passkeys",
    ]
)
_SMALL_WORDS = frozenset(
    ["the", "and", "for", "with", "from", "your", "our", "ask", "see", "use", "not", "get", "set", "via"]
)
#: The roots of code references ("config.db.password", "process.env.token"), and the small words
#: of prose ("ask-the-team"): neither is a passphrase.
_NOT_PASSPHRASE = frozenset(
    [
        *("var", "local", "data", "module", "self", "this", "os", "env", "process", "config", "settings", "secrets"),
        *("vars", "values", "inputs", "steps", "params", "app", "ctx", "context", "request", "props", "window"),
        *("document", "global", "globals", "cfg", "conf", "options", "opts"),
        *_SMALL_WORDS,
    ]
)
#: A value that is itself a key's name ("postgres-password" in a Helm `passwordKey:`).
_NAME_LIKE = re.compile(r"^[a-z]+(?:[-_][a-z]+)*$")
_ENV_NAME = re.compile(r"^[A-Z]+(?:_[A-Z]+)*$")
#: The same with numbered pieces ("UPLOAD_KEYSTORE_BASE64", "RSA_PUBLIC_KEY_2").
_ENV_NAME_NUMBERED = re.compile(r"^[A-Z]+(?:_[A-Z]+)*(?:_[A-Z]*\d{1,3}[A-Z]*)+$")
#: Values that are something else: a password hash in crypt(3)'s format ("$2b$12$…", "$6$…") or
#: an LDAP scheme's ("{SSHA}…"),
#: OpenSSL's encrypted output (base64 of "Salted__"), an issue key or a standard's number
#: ("CORE-488", "800-63B"), a source location ("src/main.rs:14:10"), AWS KMS ciphertext (its blobs
#: open with a version header that base64 spells "AQICAH"), an argon2 hash's "p=N$salt$digest" tail.
_NOT_A_VALUE = re.compile(
    r"^(?:(?:argon2:|sha1:)?\$(?:2[abxy]?|1|5|6|8|9|y|gy|7|apr1|argon2(?:i|d|id)|pbkdf2[\w-]*|scrypt|sha\d*)\$.*"
    r"|(?i:\{?(?:s?sha\d{0,3}|s?md5|crypt|pbkdf2[\w-]{0,12}|argon2)\}).+|U2FsdGVkX1.*|AQICAH[A-Za-z0-9+/]{40,}={0,2}|[a-z]=\d{1,10}\$[\w+/.-]{8,}\$[\w+/.-]{16,}={0,2}"
    r"|[A-Z][A-Z0-9]{1,9}-\d{1,6}:?|\d{2,5}-\d{1,5}[A-Za-z]?"
    # a request's id as APIs print it in errors and logs (Stripe, OpenAI and Anthropic: "req_…")
    r"|req_[A-Za-z0-9]{8,64}(?![\w-])"
    # a .NET configuration key ("Twilio:AuthToken")
    r"|[A-Z][A-Za-z0-9]*(?::[A-Z][A-Za-z0-9]*)+$"
    # a CI's encrypted setting ("Encrypted(…)", Codemagic), an .rdp file's DPAPI blob ("51:b:0100…"),
    # a status code or an address in hex ("0xC000006D")
    r"|Encrypted\(.*|(?i:encrypted|ciphertext):[A-Za-z0-9+/=_-]{16,}.*|51:b:[0-9A-Fa-f]{16,}|0x[0-9A-Fa-f]{1,16}[.,;)]?$"
    # hashes that must be cracked before they log in (NetNTLMv1/2 as Responder prints them, Kerberos
    # tickets as hashcat reads them), and an .rdp file's other settings ("username:s:…")
    r"|[^\s:]{1,64}::[^\s:]{0,64}:[0-9A-Fa-f]{16}:[0-9A-Fa-f]{32,48}:[0-9A-Fa-f]{16,}$|\$(?:krb5(?:tgs|asrep|pa)|NETNTLMv?2?)\$.*"
    r"|(?:username|domain|full[ ]address|gatewayhostname|alternate[ ]shell):[sib]:.*"
    # a Wi-Fi network's security mode ("WPA2-Enterprise"), a length ("32-char"), a quantity ("50GiB,")
    r"|(?i:wpa[23]?|wep|wpa2/wpa3)(?:[-/ ](?i:personal|enterprise|psk|sae|eap|aes|tkip|ccmp|mixed|transition))*[.,;)]?$"
    r"|\d{1,4}[- ]?(?i:chars?|characters?|digits?|letters?|bytes?|bits?|words?)[.,;)]?$"
    r"|\d+(?:[.,]\d+)?(?:[KMGTPE]i?B|[KMGT]|[kmgt]b|ms|µs|ns|s|sec|min|h|d|w|%|px|rpm|rps|qps)[.,;)]?$"
    # a command-line flag ("openssl rand -base64 24"), a URL-encoded URL (a SAS token's "sr=")
    r"|--?[a-z][a-z0-9]{1,20}(?:-[a-z0-9]{1,20}){0,3}$|(?i:https?%3A%2F%2F).*"
    # GitLab's deploy token user names (`gitlab+deploy-token-N`), a host and its port
    r"|gitlab\+deploy-token-\d{1,12}|[a-z][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63})+:\d{2,5}"
    # a password hashing scheme's name ("we store passwords as argon2id")
    r"|(?i:argon2(?:id|i|d)?|bcrypt|s?crypt|yescrypt|(?:md5|sha256|sha512)[-_]?crypt|pbkdf2(?:[-_]sha\d{1,3})?)(?![\w$-])"
    # a version or a standard's number ("^24.13.4", "v2.3.1-rc1", "802.1X"), an algorithm's name
    r"|[\^~>=<v]{0,2}\d{1,4}(?:\.\d{1,4}){1,3}[A-Za-z]?(?:[-+][\w.]{1,20})?"
    r"|(?i:(?:scram|hmac|pbkdf2|rsa|ecdsa|aes|chacha20|sha|blake2b?)(?:-(?:sha)?\d{1,4}|-[a-z]{2,8}){1,3})"
    r"|[\w./-]+\.[A-Za-z]{1,5}:\d+(?::\d+)?"
    # Django's "algorithm$iterations$salt$hash", an htpasswd line "user:$2y$…", an image's digest
    r"|(?:pbkdf2_sha\d+|bcrypt_sha256|bcrypt|argon2|scrypt|sha1|md5)\$\w.*|(?:[\w.-]{1,200}=)?[\w.-]{1,64}:\$\$?(?:2[abxy]?|apr1|1|5|6|y)\$.*"
    # Jenkins' encrypted `hudson.util.Secret` ("{AQAAABAAAAAQ…}": version 1, a 16-byte IV): ciphertext
    r"|\{AQAAABAAAA[A-Za-z0-9+/]{20,}={0,2}\}?"
    r"|[^\s@]{1,200}@sha256:[0-9a-f]{64}|(?i:sha\d{1,3}|md5|blake2b?)[:=-][0-9a-fA-F]{32,128}"
    # a file's name or a relative path to one ("laptop_handout_2024-11-12.csv", "notes/2024-07-26.md")
    r"|[\w.-][\w./-]{0,400}\.(?i:csv|tsv|txt|json|ya?ml|xml|log|md|pdf|zip|gz|tgz|tar|7z|conf|cfg|ini|env|pem|crt|cer|p12|pfx|jks"
    r"|kdbx|sql|db|sqlite|bak|py|js|ts|go|rb|sh|ps1|html?|png|jpe?g|docx?|xlsx?|key|pub|ovpn|keytab))$"
)
#: A host's name: labels and a top-level domain, public or of a private network ("db-04.qa.corp").
_HOSTNAME = re.compile(
    r"^(?:[A-Za-z0-9-]{1,63}\.)+(?i:com|net|org|io|dev|app|cloud|co|ai|me|info|biz|eu|de|fr|uk|nl|jp|us|ca|au|ch|se|no"
    r"|es|it|pl|br|in|local|localdomain|lan|corp|internal|intra|intranet|home|arpa|test|example|invalid|svc|cluster"
    r"|edu|gov|mil|il|cn|kr|tw|hk|sg|nz|za|ie|fi|dk|at|be|pt|cz|gr|tr|mx|ar|id|vn|th|ph)$"
)
#: A Windows registry key ("HKEY_LOCAL_MACHINE\SOFTWARE\…", "[HKCU\…]"): a path, not a value.
_REGISTRY_PATH = re.compile(r"^\[?-?(?:HKEY_[A-Z_]+|HK(?:LM|CU|CR|U|CC))(?:\\|\]|$)")
#: An environment variable's last words: "…_DB_PASSWORD", "…_API_TOKEN".
_ENV_SUFFIX = re.compile(r"_(?:PASSWORD|PASSWD|PWD|PASS|TOKEN|SECRET|KEY|CREDENTIALS?)$")
#: (a word that ends in "pass" is no name for one: "compass", "bypass" in a passphrase)
_NAME_LIKE_WORD = re.compile(r"(?<!com|byp)pass|secret|token|(?<![a-z])keys?(?![a-z])|cred")
_LOOPBACK = frozenset(["localhost", "127.0.0.1", "[::1]", "::1"])
_URL_HOST = re.compile(r"@(?P<host>\[[^\]\s]{1,60}\]|[^\s:/?#]{1,253})")
#: Commands and files whose syntax names a secret, each with substrings it needs (lower case);
#: the match's value is its "value" group, or "hex", "pass" or "k" for openssl.
_COMMAND_SECRETS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (_LOGIN_PASSWORD, ("login",)),
    (_STDIN_PASSWORD, ("--password-stdin", "sudo", "--with-token", "login", "kinit", "passwd", "--passphrase-fd")),
    *(
        (pattern, ("sqlplus", "rman", "expdp", "impdp", "sqlldr", "oracle", "mkstore", "connect"))
        for pattern in _ORACLE
    ),
    (_GO_DSN, ("@tcp(", "@unix(")),
    (_USER_KEY, ("-u", "--user")),
    (_OPENSSL_KEY, ("openssl",)),
    (_SECURE_STRING, ("securestring",)),
    (_SASL_PASSWD, ("]",)),
    (_ENCRYPT_KEY, ("encrypt",)),
)


def _gate(needs: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]]]:
    """Each pattern (by position) runs only when a substring it needs is in the text: every
    substring once, and for each the patterns it lets run (one pass over them all, `_active`,
    rather than a test per pattern)."""
    index: dict[str, list[int]] = {}
    for i, literals in enumerate(needs):
        for literal in literals:
            index.setdefault(literal, []).append(i)
    return tuple(index), {literal: tuple(ids) for literal, ids in index.items()}


def _active(text: str, gate: tuple[tuple[str, ...], dict[str, tuple[int, ...]]]) -> list[int]:
    """The patterns of *gate* that may match *text*, in their order."""
    literals, index = gate
    return sorted({i for literal in literals if literal in text for i in index[literal]})


#: The plugins' and our token formats' substrings (matched in the text as it is), and the
#: command patterns' (in lower case).
_FORMAT_GATE = _gate((*(_PLUGIN_LITERALS[kind] for kind in _PLUGINS), *(_TOKEN_LITERALS[kind] for kind in _TOKENS)))
_TOKEN_ITEMS = tuple(_TOKENS.items())
_COMMAND_GATE = _gate((*(needs for _, needs in _COMMAND_PASSWORDS), *(needs for _, needs in _COMMAND_SECRETS)))


#: An identifier named as one just before a value ("Account SID AC…", "client id: …").
#: A table's header row: cells that are all short names ("url,username,password", "| Site | Login |
#: Password |"); a column whose name is a secret's makes that column's cells secrets.
_HEADER_CELL = re.compile(r"[A-Za-z0-9][\w .()/'’-]{0,40}")
_TABLE_NEEDS = ("pass", "secret", "token", "key", "community", "pin", "pwd", "seed")
#: A column of values, in a table of names and values ("| Variable | Value | Notes |").
_VALUE_WORDS = frozenset(["value", "values", "wert", "valeur", "valor", "waarde", "wartosc", "valore"])
_KEY_COLUMNS = frozenset(
    [("name",), ("key",), ("variable",), ("var",), ("setting",), ("field",), ("parameter",), ("param",), ("env",)]
)
#: psql's rule under its header row (" id | name\n----+------").
_PSQL_RULE = re.compile(r"[ \t]*-+(?:\+-+)+[ \t]*$")
#: An SQL INSERT with its column list: a dump's or a fixture's rows, each value under its column.
_SQL_INSERT = re.compile(
    r"(?i)\bINSERT[ \t]+INTO[ \t]+[\w.`\"\[\]]{1,80}[ \t]*\((?P<cols>[^()\n]{1,400})\)[ \t]*VALUES\s{0,20}"
    r"(?P<rows>(?:\((?:[^()'\n]|'(?:[^'\\\n]|\\.|''){0,400}'){1,400}\)[ \t]*,?\s{0,20}){1,50})"
)
#: PostgreSQL's dump of a table: `COPY t (cols) FROM stdin;`, rows of tab-separated values, `\.`.
_SQL_COPY = re.compile(
    r"(?i)\bCOPY[ \t]+[\w.\"]{1,80}[ \t]*\((?P<cols>[^()\n]{1,400})\)[ \t]*FROM[ \t]+stdin;?[ \t]*\n"
)
#: A command whose output is a secret: a secret store's read (`kubectl get secret …`, `vault kv get
#: -field=…`, `aws secretsmanager get-secret-value`, `gcloud secrets versions access`, `az keyvault
#: secret show`, `security find-generic-password -w`, `pass show`, `op read`, `doppler secrets get`,
#: `heroku config:get`), a CLI printing its token (`gh auth token`, `fly auth token`, `gcloud auth
#: print-access-token`), a generator (`openssl rand`, `pwgen`, `/dev/urandom`, `secrets.token_hex`,
#: `wg genkey`, `kubeadm token create`), and `… | base64 -d` of something named a secret.
_SECRET_COMMAND = re.compile(
    r"\bkubectl\b[^\n]{0,200}?\bget[ \t]+secrets?\b|\bvault[ \t]+(?:kv[ \t]+get|read)\b[^\n]{0,200}?[ \t]-field\b"
    r"|\baws[ \t]+secretsmanager[ \t]+get-secret-value\b|\baws[ \t]+ssm[ \t]+get-parameters?\b[^\n]{0,200}?--with-decryption"
    r"|\bgcloud[ \t]+secrets[ \t]+versions[ \t]+access\b|\bgcloud[ \t]+auth[ \t]+(?:application-default[ \t]+)?print-"
    r"|\baz[ \t]+keyvault[ \t]+secret[ \t]+show\b|\baz[ \t]+storage[ \t]+account[ \t]+keys[ \t]+list\b|\bsecurity[ \t]+find-(?:generic|internet)-password\b[^\n]{0,200}?[ \t]-\w*w"
    r"|\b(?:go)?pass[ \t]+show\b|\bop[ \t]+(?:read|item[ \t]+get)\b|\bdoppler[ \t]+secrets[ \t]+get\b"
    r"|\bheroku[ \t]+(?:config:get|auth:token)\b|\bgh[ \t]+auth[ \t]+token\b|\bfly(?:ctl)?[ \t]+(?:auth[ \t]+token|tokens?[ \t]+create)\b"
    r"|\bopenssl[ \t]+rand\b|\bpwgen\b|/dev/u?random\b|\bsecrets\.token_\w+|\bwg[ \t]+genkey\b|\bkubeadm[ \t]+token[ \t]+create\b"
    r"|\|[ \t]*base64[ \t]+(?:-d|--decode|-D)\b"
    r"|\bmagento[ \t]+config:show[ \t]+\S*(?:secret|key|password|token|salt)\b"
)
_CLI_WARNING = re.compile(r"[ \t]*(?:›[ \t]*)?(?i:warning|warn|notice|note)\b[^\n]{0,200}\n")
_TRUNCATED = re.compile(r"\|[ \t]*(?:head|cut)[ \t]+-c")
_GENERATOR = re.compile(r"openssl|pwgen|/dev/|secrets\.")
_COMMAND_NEEDS = (
    *(
        "kubectl",
        "vault",
        "secretsmanager",
        "ssm",
        "gcloud",
        "keyvault",
        "find-",
        "pass",
        "op ",
        "doppler",
        "keys list",
    ),
    *(
        "heroku",
        "gh auth",
        "fly",
        "openssl",
        "pwgen",
        "random",
        "secrets.",
        "genkey",
        "kubeadm",
        "base64",
        "config:show",
    ),
)
#: A shell's `echo "… $SECRET_VAR …"` and the line it printed: the variable's value, unmasked in a
#: CI log.
_ECHO_VAR = re.compile(
    r"\becho[ \t]+(?:-[neE][ \t]+)?(?P<q>[\"']?)(?P<pre>[^\n$\"'`]{0,200})\$\{?(?P<var>[A-Za-z_]\w{0,60})\}?"
    r"(?P<post>[^\n$\"'`]{0,200})(?P=q)[ \t]*\n(?P<out>[^\n]{1,600})"
)
#: A command that prints one named value, and the line it printed: `terraform output -raw NAME`
#: (OpenTofu's `tofu output`), `pulumi stack output NAME --show-secrets`, `printenv NAME`.
_NAMED_OUTPUT = re.compile(
    r"\b(?:(?:terraform|tofu)[ \t]+output(?:[ \t]+-(?:raw|json|no-color|state=\S{1,200}))*|pulumi[ \t]+stack[ \t]+output"
    r"|printenv)[ \t]+(?P<name>[A-Za-z_][\w.-]{0,80})(?P<rest>[^\n|>;&]{0,80})\n(?:[ \t]*\n)?"
    r"[ \t]*(?P<q>\"?)(?P<value>[^\s\"]{1,400})(?P=q)[ \t]*(?=\n|$)"
)
#: An object keyed by a variable's name that holds its value in a "value" field: Spring Boot's
#: `/actuator/env` (`"DB_PASSWORD": {"value": "…", "origin": …}`), Terraform's and CloudFormation's
#: JSON outputs.
_KEYED_VALUE = re.compile(
    r"[\"'](?P<name>[A-Za-z_][\w.-]{0,80})[\"'][ \t]*:[ \t]*\{[ \t\r\n]*(?:[\"'][A-Za-z_]\w{0,30}[\"'][ \t]*:[ \t]*"
    r"(?:true|false|null|\d{1,12}|\"[^\"\n{}]{0,200}\")[ \t]*,[ \t\r\n]*){0,4}[\"']value[\"'][ \t]*:[ \t]*"
    r"(?P<q>[\"'])(?P<value>[^\"'\n]{1,400})(?P=q)"
)
#: A REPL's read of a variable and the value it echoed on the next line: IPython's `In [8]:
#: os.environ["X"]` / `Out[8]: '…'`, Python's and Node's `>>> …` / `> process.env.X` / `'…'`, irb's
#: and pry's `=> "…"`.
_REPL_READ = re.compile(
    r"(?m)^[ \t]*(?:In[ \t]?\[\d{1,5}\]:|>>>|>|irb\([^)\n]{0,40}\)[\d:]{0,12}[>*]|\[\d{1,5}\][ \t]?pry\([^)\n]{0,40}\)>)"
    r"[ \t]*(?P<expr>[A-Za-z_$][^\s=]{0,200}?)[ \t]*;?[ \t]*\n[ \t]*(?:Out[ \t]?\[\d{1,5}\]:[ \t]*|=>[ \t]*)?"
    r"(?P<q>[\"'`])(?P<value>[^\n]{1,400}?)(?P=q)[ \t]*$"
)
_REPL_NEEDS = ("\n>", "Out[", "irb(", "pry(")
_LAST_NAME = re.compile(r"[A-Za-z_][\w-]*(?=[^A-Za-z_]*$)")
#: A row of a browser's password export pasted without its header: the site's URL, the user, the
#: password (Chrome's `name,url,username,password,note`, Firefox's `url,username,password,…`).
_LOGIN_ROW = re.compile(
    r"(?m)^(?:[^,\t\n]{0,200}[,\t])?https?://[^\s,\t]{1,300}[,\t][\"']?[^\s,\t\"']{1,100}[\"']?[,\t]"
    r"(?P<q>[\"']?)(?P<value>[^\s,\t\"']{1,200})(?P=q)(?:[,\t][^\n]{0,300})?$"
)
_SQL_ROW = re.compile(r"\((?P<body>(?:[^()'\n]|'(?:[^'\\\n]|\\.|''){0,400}'){1,400})\)")
_SQL_FIELD = re.compile(r"[ \t]*(?:'(?P<str>(?:[^'\\\n]|\\.|''){0,400})'|[^,']{0,400})[ \t]*(?:,|$)")
_TABLE_RULE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?::?-{3,}:?[ \t]*)?$")
#: Column names that say a cell is a secret although `_name_kind` reads them as plain words.
_SECRET_COLUMNS = frozenset(["community", "pin", "passcode"])
_NAMED_ID = re.compile(
    r"(?:(?i:(?<![A-Za-z])(?:sid|id|checksum|digest|sha256|sha1|md5|хеш(?:[ \t]+коміту)?|хэш(?:[ \t]+коммита)?))"
    r"|(?<=[a-z])(?:Sid|Id|SID|ID))\b[\"']?[ \t]*[:=]?[ \t]*[\"']?$"
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One secret in a string: its kind and where it is (character offsets)."""

    kind: str
    start: int
    end: int


def _entropy(value: str) -> float:
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_random(value: str) -> bool:
    """A credential-shaped value: long enough, mixed, and of high entropy for its alphabet. A
    hex string named a secret counts; a UUID does not (an id, however it is named)."""
    if len(value) < 16 or _UUID.match(value) or _RUN.search(value):
        return False
    if value.startswith("0x") and _HEX.match(value[2:]):
        value = value[2:]  # (hex written as a number: an Ethereum key)
    elif (prefixed := _PREFIXED_HEX.fullmatch(value)) is not None:
        value = prefixed.group("body")  # (a vendor's prefix, then hex: "sk_1x1_<64 hex>", "re_<n>_<hex>")
    elif _HEX_GROUPS.fullmatch(value):
        value = value.replace("-", "")  # (hex in more groups than a UUID has: a key, the dashes layout)
    elif _GROUPED.match(value):
        value = value.replace("-", "")  # a key in groups ("XZGB-GSI5-…"): the dashes are layout
        if (
            not _HEX.match(value)
            and any(c.isdigit() for c in value)
            and sum(c.isalpha() for c in value) * 3 >= len(value)
            and _entropy(value) >= 3.3
        ):
            return True  # (a recovery or licence key: one case and digits, its grouping says what it is)
    if _HEX.match(value):
        return len(value) >= 20 and _entropy(value) >= _ENTROPY["hex"]
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"[0-9]"))
    if classes < 2 and not (classes == 1 and len(value) >= 24 and re.search(r"[0-9]", value)):
        return False
    if sum(c.isdigit() for c in value) * 5 > len(value) * 3:
        return False  # mostly digits and not hex: ids, versions, timestamps ("GA1.2.1095854.17372")
    # (n random characters hold fewer than log2(n) bits each: the bar rises with the length,
    # from 3.5 at 16 characters to 4.0 from 32 on, without a step a random value may fall off)
    return _entropy(value) >= _ENTROPY["base64"] - 0.5 * min(1.0, max(0.0, (32 - len(value)) / 16))


def _varied(value: str) -> bool:
    """Long, with digits and letters, and not too repetitive: random enough for a value that
    its syntax already calls a credential."""
    return (
        len(value) >= 16
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
        and _entropy(value) >= 3.0
    )


def _decoded(value: str) -> str | None:
    """*value* decoded from base64 when that gives printable text, else None."""
    if len(value) < 8 or not _B64.match(value) or _HEX.match(value):
        return None  # (hex is a hash or an id far more often than base64)
    try:
        raw = base64.b64decode(
            value + "=" * (-len(value) % 4), altchars=b"-_" if "-" in value or "_" in value else None
        )
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    return text if text.isprintable() and len(text) >= 4 else None


def _sample_jwt(token: str) -> bool:
    """*token* is jwt.io's example (subject "1234567890", "John Doe"): documentation, not a login."""
    payload = _decoded(token.split(".")[1]) if token.count(".") >= 1 else None
    return payload is not None and '"sub":"1234567890"' in payload.replace(" ", "") and "John Doe" in payload


def _public_jwt(token: str) -> bool:
    """*token*'s payload gives it the role "anon": Supabase's anon key, public by its docs (it ships
    to browsers; row-level security guards the data), unlike the "service_role" key."""
    payload = _decoded(token.split(".")[1]) if token.count(".") >= 1 else None
    if payload is None or '"anon"' not in payload:
        return False
    try:
        claims = json.loads(payload)
    except ValueError:
        return False
    return isinstance(claims, dict) and claims.get("role") == "anon"


def _credential_like(value: str) -> bool:
    """A value that reads as a password: letters with digits, random, or such a value in
    base64."""
    if _looks_random(value):
        return True
    if any(c.isalpha() for c in value) and any(c.isdigit() for c in value):
        return True
    decoded = _decoded(value)
    return decoded is not None and decoded != value and _credential_like(decoded)


def _placeholder(value: str) -> bool:
    """*value* stands for a secret ("<token>", "your-api-key", "123456789:ABCdef…"), unless what
    follows a placeholder-like word is random ("secret-N0CN…" is a Statsig key)."""
    if not _PLACEHOLDER.match(value):
        # (and the UUID every tutorial shows, RFC 4122's example)
        return (len(value) >= 6 and _sequential(value)) or value.lower() == "123e4567-e89b-12d3-a456-426614174000"
    if value.startswith(("@", "!")) and (_looks_random(value[1:]) or _human_password(value)):
        return False  # a random value, not a reference or a tag ("@vault_password", "!vault")
    if value.startswith("$") and _chosen_password(value[1:]) and any(c.isdigit() for c in value.split("$")[1][:20]):
        return False  # a password that starts with "$" ("$umm1t3mber#44"), not a variable
    prefixed = _PREFIXED.match(value)
    lowered = value.lower()
    return (
        prefixed is None
        or not _looks_random(prefixed.group("body"))
        or "example" in lowered
        or "placeholder" in lowered
    )


def _bootstrap_token(value: str) -> bool:
    """*value* is a bootstrap token as kubeadm makes them: random letters and digits (not the
    documentation's "abcdef.0123456789abcdef")."""
    secret = value[7:]
    return (
        any(c.isdigit() for c in secret)
        and any(c.isalpha() for c in secret)
        and not _sequential(value)
        and _entropy(secret) >= 3.0
    )


def _regex_source(value: str) -> bool:
    """*value* is a pattern's source (a scanner's own rule quoted: "[A-Za-z0-9_\\-]{24,}")."""
    return any(r in value for r in ("A-Z", "a-z", "0-9")) and any(c in value for c in "[]{}\\")


def _sequential(value: str) -> bool:
    """*value* holds a run of the alphabet ("ABCdefGh", "12345678"): a documentation example."""
    return _SEQUENCE.search(value) is not None


def _app_password(value: str) -> bool:
    """*value* is an app password: Google's sixteen letters, Apple's four hyphenated groups,
    WordPress's six groups of letters and digits."""
    if _WP_APP_VALUE.fullmatch(value):
        return _entropy(value.replace(" ", "")) >= _APP_ENTROPY
    letters = value.replace("-", "")
    return (
        len(letters) == 16
        and letters.isalpha()
        and letters.islower()
        and (value == letters or _APPLE_APP_PASSWORD.match(value) is not None)
        and _entropy(letters) >= _APP_ENTROPY
    )


def _chosen_password(value: str) -> bool:
    """*value* has the shape password rules ask for: letters, a digit and a symbol (and is not
    a pair: "_gid=GA1.2.1095…")."""
    return (
        8 <= len(value) <= 64
        and not _ASSIGNMENT.match(value)
        and any(c.isalpha() for c in value)
        and any(c.isdigit() for c in value)
        and any(c in _PASSWORD_SYMBOLS for c in value)
    )


def _strong(value: str) -> bool:
    """*value* has more than lower-case letters and digits: a capital or a symbol."""
    return any(c.isupper() for c in value) or any(not c.isalnum() for c in value)


def _passphrase(value: str) -> bool:
    """*value* is three or more words joined by one separator, not a code reference: a password
    a person chose ("correct-horse-battery-staple")."""
    m = _PASSPHRASE.match(value)
    if m is None or len(value) < 12:
        return False
    pieces = value.lower().split(m.group("sep"))
    words = [w.rstrip(string.digits) for w in pieces]
    if sum(w != v for w, v in zip(words, pieces, strict=True)) > 2:
        return False  # (digits after most words: versions and ids, "node12.eu3.prod4")
    # (a code reference's root starts it: "window.location.href"; later words may be any noun)
    return words[0] not in _NOT_PASSPHRASE and not any(w in _SECRET_WORDS or w in _SMALL_WORDS for w in words[1:])


_SWITCHES = re.compile(r"[A-Za-z]\d|\d[A-Za-z]")


def _random_piece(value: str) -> bool:
    """A piece of the dotted *value* switches between letters and digits again and again
    ("tj1y14a6pgysxqml"): a random token's, not a code reference's ("v1alpha1")."""
    return any(len(p) >= 10 and len(_SWITCHES.findall(p)) >= 4 for p in value.split("."))


#: Words for an account or a device whose password is what a note gives next ("admin: …", "the
#: wifi is …", "VNC on the mac mini is …").
_ACCOUNT_WORDS = frozenset(
    ["admin", "administrator", "root", "login", "superuser", "wifi", "wlan", "vpn", "rcon", "vnc", "svc"]
)


#: The word for a password, whole (not a piece of a value: "…8G7Pw").
_PASSWORD_WORD = re.compile(
    r"(?i)(?<![\w-])(?:pass(?:word|wd|phrase|code)?|pw|pwd|passwort|kennwort|contrase[ñn]a|mot de passe|senha"
    r"|wachtwoord|has[łl]o|l[öo]senord|salasana|heslo|jelsz[óo]|[şs]ifre|парол[ьяюе]|パスワード|密码|密碼|비밀번호)(?![\w-])"
)
_ACCOUNT_HINTS = frozenset([*_ACCOUNT_WORDS, "wi-fi"])


def _account_name(parts: tuple[str, ...]) -> bool:
    """*parts* name an account or a device's login ("admin", "wifi", "svc_backup")."""
    return bool(parts) and (parts[-1] in _ACCOUNT_WORDS or parts[0] == "svc" or parts[-2:] == ("wi", "fi"))


def _transitions(value: str) -> int:
    """How often *value* changes between lower case, upper case and digits."""
    kinds = [0 if c.islower() else 1 if c.isupper() else 2 if c.isdigit() else 3 for c in value]
    return sum(a != b for a, b in itertools.pairwise(kinds))


def _human_password(value: str) -> bool:
    """*value* has the shape of a password a person made: letters with digits and a symbol, three
    words run together with digits ("IrisCometFjord941"), letters and digits mixed through ("leet"),
    a season and a year ("Herbst2022"), words joined with digits, or random characters; not a
    name with a number ("JaneDoe2024", "ClusterAdmin01", "Office-5G")."""
    if not 8 <= len(value) <= 64 or _HEX.match(value):
        return False
    upper = lower = digit = symbol = joiner = False
    for c in value:
        if c.isupper():
            upper = True
        elif c.islower():
            lower = True
        elif c.isdigit():
            digit = True
        elif c in _PASSWORD_SYMBOLS:
            symbol = True
        elif c in "-_.":
            joiner = True
    if (digit and symbol and _chosen_password(value)) or (len(value) >= 16 and _looks_random(value)):
        return True
    if upper and lower and digit:
        if symbol or (
            joiner and len(value) >= 10 and (sum(c.isdigit() for c in value) >= 2 or _UPPER_RUN.search(value))
        ):
            return True
        return (
            len(_CAPITALIZED.findall(value)) >= 3
            or len(_SWITCHES.findall(value)) >= 4
            or _SEASONAL.match(value) is not None
            or (_transitions(value) >= 4 and not _WORDLIKE.search(value))  # ("DvdNd4kH": no word in it)
        )
    if upper and lower and (symbol or joiner) and len(value) >= 10 and _UPPER_RUN.search(value) is not None:
        return True  # ("ruoa_IFZROvgw": random letters of both cases)
    return (digit and _passphrase(value)) or (_passphrase(value) and len(value) >= 16)


_CAPITALIZED = re.compile(r"[A-Z][a-z]{2,}")
_WORDLIKE = re.compile(r"[A-Z]?[a-z]{4,}|[A-Z][a-z]{2,}\d")
#: The most common password people choose: a season (or a greeting) and a year.
_SEASONAL = re.compile(
    r"(?i)^(?:spring|summer|autumn|fall|winter|sommer|herbst|fr[üu]hling|invierno|verano|primavera|oto[ñn]o|hiver"
    r"|printemps|automne|[ée]t[ée]|inverno|estate|autunno|zomer|welcome|willkommen|bienvenue|password|passw0rd)"
    r"[^A-Za-z]{0,2}\d{2,4}[^A-Za-z0-9]{0,2}$"
)
_UPPER_RUN = re.compile(r"[A-Z]{3}")
_REPEAT = re.compile(r"(.)\1{3}")


def _person_password(value: str) -> bool:
    """*value* mixes both cases, digits and a symbol: a password a person made ("Ivana1963-pep")."""
    return (
        10 <= len(value) <= 64
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and 0 < sum(c.isdigit() for c in value) * 2 <= len(value)
        and any(not c.isalnum() for c in value)
        and not _ASSIGNMENT.match(value)
        and _REPEAT.search(value) is None
    )


_ENV_NAME_IN = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![A-Za-z0-9])")
_FIELD_IN = re.compile(r"(?:-field[= ]|\.data\.)([A-Za-z][\w-]{0,60})")


def _names_token(command: str) -> bool:
    """*command* reads a secret whose name calls it a token, a secret or an API key (a
    Kubernetes Secret's `{.data.POSTMARK_SERVER_TOKEN}` or `{.data.client_secret}`, a vault
    field: `vault kv get -field=api_key …`)."""
    return any(
        _name_parts(name)[-1:] in (("token",), ("secret",), ("key",), ("apikey",))
        for name in (
            *(m.group() for m in _ENV_NAME_IN.finditer(command)),
            *(m.group(1) for m in _FIELD_IN.finditer(command)),
        )
    )


def _short_random(value: str) -> bool:
    """*value* is eight to fifteen letters of both cases and digits with no word in it, as a
    generator draws them ("sclWwjy2cxr1", a Velocity forwarding secret)."""
    return (
        8 <= len(value) <= 15
        and value.isalnum()
        and value.isascii()
        and _three_classes(value)
        and not re.search(r"[a-z]{5}|[A-Z]{5}|\d{5}", value)
        and len(_SWITCHES.findall(value)) >= 2
        and _entropy(value) >= 3.0
    )


def _one_case_random(value: str) -> bool:
    """*value* is twelve or more letters of one case and digits drawn at random (Dropbox's app
    secrets are fifteen): digits among the letters, too few vowels for words, not hex."""
    letters = [c for c in value if c.isalpha()]
    return (
        12 <= len(value) <= 64
        and value.isascii()
        and value.isalnum()
        and (value.islower() or value.isupper())
        and sum(c.isdigit() for c in value) >= 2
        and len(letters) >= 6
        and sum(c in "aeiouAEIOU" for c in letters) * 3 <= len(letters)
        and _entropy(value) >= 3.2
        and not _HEX.match(value)
    )


def _three_classes(value: str) -> bool:
    """*value* has lower-case and upper-case letters and digits."""
    return any(c.islower() for c in value) and any(c.isupper() for c in value) and any(c.isdigit() for c in value)


def _mixed_token(value: str) -> bool:
    """*value* is sixteen or more letters of both cases and digits, with no run of lower-case
    letters long enough to be a word ("lzlqTxmyZqy9f5Tz", a Vonage API secret)."""
    return (
        len(value) >= 16
        and value.isalnum()
        and value.isascii()
        and _three_classes(value)
        and not re.search(r"[A-Za-z][a-z]{5}", value)
        and _entropy(value) >= 3.2
    )


def _token_like(value: str) -> bool:
    """*value* is letters and digits mixed through twenty or more characters (a Mattermost token:
    26 lower-case letters and digits; an Eventbrite private token: 20 capitals and digits),
    varied enough not to be a word and a number: a switch between letters and digits every five
    characters, as a random draw from one case and digits has them."""
    return (
        len(value) >= 20
        and value.isalnum()
        and sum(c.isdigit() for c in value) >= 4
        and sum(c.isalpha() for c in value) >= 4
        and len(_SWITCHES.findall(value)) >= min(6, len(value) // 5)
        and _entropy(value) >= 3.2
    )


def _random_letters(value: str) -> bool:
    """*value* is eight or more letters in one case drawn at random ("SCYHBWTM", a device's printed
    default password): no word has so few vowels."""
    return (
        len(value) >= 8
        and value.isalpha()
        and (value.isupper() or value.islower())
        and sum(c in "aeiouAEIOU" for c in value) * 4 < len(value)
        and _entropy(value) >= 2.5
    )


def _vendor_key(name: str, parts: tuple[str, ...], any_case: bool = False) -> bool:
    """*name* is an environment variable for a service's key: "SERVICE_KEY" or "SERVICE_THING_KEY",
    the words before "KEY" none that make it a kind of key or a lookup ("KAGGLE_KEY",
    "STEAM_PUBLISHER_KEY", not "CACHE_KEY" or "GPG_KEY"); with *any_case*, also "service_key",
    "serviceKey" and an HTTP header's "Service-Key" (taken only for a random value: `_accepts`)."""
    qualifiers = parts[:-1]
    return (
        len(parts) in (2, 3)
        and parts[-1] == "key"
        and (
            name.isupper()
            or (
                any_case
                and (
                    name.islower()
                    or name[:1].islower()
                    or _HEADER_NAME.fullmatch(name) is not None
                    or _PASCAL.fullmatch(name) is not None
                )
            )
        )
        and ("_" in name or "-" in name or not name.islower())
        and all(p.isalpha() and p not in _ID_QUALIFIER | _NOT_KEY_QUALIFIER | _NOT_VENDOR for p in qualifiers)
        and len("".join(qualifiers)) >= 4
    )


def _setting_kind(name: str) -> str | None:
    """The kind of a setting's or a variable's *name*: a secret's, or a service's key in any case
    ("kaggle_key", taken only for a random value)."""
    return _name_kind(name, "") or ("service_key" if _vendor_key(name, _name_parts(name), any_case=True) else None)


_HEADER_NAME = re.compile(r"(?:[A-Z][a-z]+-){1,2}Key")
_PASCAL = re.compile(r"(?:[A-Z][a-z0-9]+){2,3}")


_NOT_VENDOR = frozenset(
    [
        *("cache", "sort", "hash", "lookup", "lock", "group", "table", "queue", "bucket", "route", "event", "state"),
        *("merge", "index", "shard", "file", "path", "image", "item", "record", "row", "user", "order", "session"),
        *("private", "public", "signing", "encryption", "master", "root", "host", "node", "deploy", "tls", "cert"),
        *("team", "project", "label", "field", "column", "entry", "metric", "topic", "cursor", "field"),
        *("range", "routing", "redis", "dedup", "unique", "composite", "natural", "surrogate", "secondary", "join"),
        *("match", "search", "storage", "access", "idempotency", "message", "object", "dict", "map", "tree"),
        *("signature", "environment", "flag", "feature", "digest", "checksum", "client", "site", "widget"),
        "consumer",  # (an OAuth consumer key is the client's id; its consumer secret is the secret)
    ]
)
_USER_FIELD = re.compile(r"(?i)[\"']?user(?:name)?[\"']?[ \t]*[:=][ \t]*[\"']?[\w.@-]{1,64}[\"']?[ \t]*[,\n]")
_LOGIN_CALL = re.compile(r"(?i)(?:login|auth\w{0,12}|connect)\([^()\n]{0,30}$")


def _random_case_letters(value: str) -> bool:
    """*value* is sixteen or more letters of one case drawn at random (an Erlang cookie is twenty
    capitals): too varied for a word or a name written in capitals."""
    return (
        len(value) >= 16
        and value.isalpha()
        and (value.isupper() or value.islower())
        and sum(c in "aeiouAEIOU" for c in value) * 3 < len(value)
        and _entropy(value) >= 3.2
    )


def _pin_like(value: str) -> bool:
    """*value* is a number a device takes as its password (six to twelve digits, not a date, a
    year or a run: "49664561")."""
    return (
        6 <= len(value) <= 12
        and value.isdigit()
        and len(set(value)) >= 3
        and not _sequential(value)
        and not _COMPACT_DATE.match(value)
    )


def _unmasked(text: str, pos: int, kind: str) -> tuple[int, int] | None:
    """Where the part of a half-masked value at *pos* that is still shown starts and ends: a mask
    hides its first characters ("**********McDQ…", "****** quartz hazel dune"), the rest is enough
    to be a secret."""
    if not text.startswith(("*", "•"), pos):
        return None
    m = _MASK_PREFIX.match(text, pos)
    if m is None:
        return None
    rest = _VALUE.match(text, m.end())
    if rest is not None:
        value = rest.group().rstrip(".,;:)]}")
        if len(value) >= 16 and _looks_random(value) and not any(c in "*•" for c in value):
            return m.end(), m.end() + len(value)
        return None
    if kind == "password":
        phrase = _MASKED_PHRASE.match(text, m.end())
        if phrase is not None and (len(phrase.group("value").split()) >= 3 or phrase.group("digits")):
            return phrase.span("value")
    return None


def _spaced_phrase(value: str) -> bool:
    """*value* is a passphrase of three or more words with spaces (diceware), not a sentence."""
    words = value.split()
    return (
        len(words) >= 3
        and len(value) >= 12
        and not _DATE_IN.search(value)  # (a note's clause: "current one created 2026-08-16, kept in …")
        and not any(w.endswith(",") for w in words[:-1])
        and not any(
            w.lower() in _PROSE_WORDS
            or w.lower() in _CLAUSE_WORDS
            or w.lower() in _NOT_PASSPHRASE
            or w.lower() in _SECRET_WORDS
            or w.lower() in _FOREIGN_PROSE
            for w in words
        )
        and not _placeholder(words[0])
        and sum(w.isalpha() for w in words) >= 3
    )


def _public_point(value: str) -> bool:
    """*value* is an uncompressed elliptic-curve public key in base64url (65 bytes from 0x04: a
    Web Push VAPID `applicationServerKey`, which every page that subscribes ships)."""
    return len(value.rstrip("=")) == 87 and value.startswith("B") and _B64.match(value) is not None


def _plain_json(value: str) -> bool:
    """*value* is base64 of a JSON object holding nothing random: settings or a position
    ("prefs" cookies, kubectl's continue tokens, a JWT's header alone), not a credential."""
    if not value.startswith("eyJ") or "." in value:
        return False
    decoded = _decoded(value)
    if decoded is None or not decoded.startswith("{"):
        return False
    strings = re.findall(r"\"((?:[^\"\\]|\\.)*)\"", decoded)
    # (what follows the object counts too: Seqera's tokens are base64 of '{"tid": 1}.<hex>')
    strings.append(decoded[decoded.rfind("}") + 1 :].strip(". \n"))
    if any(_looks_random(v) or _hex_key(v) for v in strings):
        return False
    # (a field named a key or a token holds one, random-looking or not: Neptune's token is base64
    # of JSON whose "api_key" is a UUID)
    return not any(
        _name_kind(name, "") in ("secret", "password") and len(v) >= 8 and _usable(v)
        for name, v in _JSON_FIELD.findall(decoded)
    )


_JSON_FIELD = re.compile(r"\"([\w.-]{1,60})\"[ \t]*:[ \t]*\"([^\"\\]{1,400})\"")


def _basic_pair(value: str) -> bool:
    """*value* is base64 of "user:password" with a password."""
    decoded = _decoded(value)
    if decoded is None or ":" not in decoded:
        return False
    user, _, password = decoded.partition(":")
    if not password:
        return _looks_random(user)  # an API key as the user with no password (Midtrans', Stripe's "KEY:")
    # (a reference in its place, "${PASS}" or "$PASS", is none; a "$" in a password is just a symbol)
    return len(user) <= 128 and not _placeholder(password) and "${" not in password and not password.startswith("$")


#: The last word of a capitalised name run together, after three letters or more.
_JOINED_SUFFIX = re.compile(r"(?<=[a-z0-9]{3})(?:password|passwd|secret|token|apikey|pwd|pw|psk)$")


@functools.lru_cache(maxsize=1024)
def _name_parts(name: str) -> tuple[str, ...]:
    parts: list[str] = []
    for piece in re.split(r"[^A-Za-z0-9]+", name):
        parts.extend(p.lower() for p in _CAMEL.findall(piece))
    return tuple(parts)


@functools.lru_cache(maxsize=1024)
def _name_kind(name: str, before: str) -> str | None:
    """ "password", "secret" or "session" for a secret-sounding name, else None. *before* is the
    word before it ("admin" of "admin key")."""
    parts = _name_parts(name)
    if len(parts) == 1 and name.lstrip("$").isupper() and (joined := _JOINED_SUFFIX.search(parts[0])) is not None:
        # a capitalised name run together ("$SCHOOLMESSENGERPW", "$POWERSCHOOLCLIENTSECRET"): its last word
        return _name_kind(f"{parts[0][: joined.start()]}_{joined.group()}", before)
    if parts[-1:] == ("pin",) and len(parts) > 1 and all(p.isalpha() and len(p) >= 3 for p in parts):
        return "service_key"  # ("ELAVON_SSL_PIN=<64 random>": only a long random value, never "LED_PIN=13")
    if "".join(parts) in _LORAWAN_KEYS:
        return "secret"  # LoRaWAN's root and session keys ("NwkSKey", "AppSKey", "LORA_NWKSKEY")
    if parts[-1:] == ("hmac",) and len(parts) > 1 and parts[-2].isalpha() and parts[-2] not in ("pbkdf", "sha", "md"):
        return "secret"  # a setting that holds an HMAC key ("ADYEN_NOTIFICATION_HMAC")
    if parts[-2:] in (("auth", "header"), ("authorization", "header")) or (
        len(parts) > 1 and parts[-1] == "authorization"
    ):
        # a whole Authorization header's value ("UPSTREAM_AUTH_HEADER: <base64 user:pass>"), also
        # under a setting named after the header (fastlane's MATCH_GIT_BASIC_AUTHORIZATION)
        return "secret"
    if (
        not parts
        or parts[-1] in _NAME_NOT_VALUE
        or (parts[0] == "existing" and parts[-1] == "secret")
        # (a form's CSRF token is per session and guards one form, no credential; a framework's CSRF
        # *secret* or key signs them)
        or (parts[-1] in ("token", "tokens") and any(p in ("csrf", "xsrf") for p in parts))
        or "csrfmiddlewaretoken" in parts
    ):
        return None  # (a Helm chart's `existingSecret`, `existingPasswordSecret` names a Kubernetes Secret to read)
    if not _CIPHERTEXT_WORDS.isdisjoint(parts):
        return None  # what it holds is ciphertext or a digest ("encrypted_password = gAAAAA…")
    modified = [i for i, p in enumerate(parts) if p in _NAME_MODIFIES]
    if modified and not any(
        _PASSWORD_PART.match(p) or _SECRET_PART.match(p) or p in ("key", "keys") for p in parts[modified[-1] :]
    ):
        return None  # a setting about the secret ("token_rotation_v2", "password_reset_flow")
    if any(
        q in ("token", "tokens", "key", "keys")
        and ((p in _ID_QUALIFIER and p not in _ACCESS_KEY_SLOTS) or (p == "client" and q[0] == "k"))
        for p, q in itertools.pairwise((before.lower(), *parts))
    ):
        return None
    if (
        any(_PASSWORD_PART.match(p) for p in parts)
        or (parts[-1] in ("code", "codes") and _RECOVERY_CODE.search(before.lower() + parts[-1]) is not None)
        or any(
            (p, q) in (("shared", "secret"), ("pre", "shared"), ("preshared", "key"), ("key", "content"))
            for p, q in itertools.pairwise((before.lower(), *parts))
        )
        or _CRYPT_TOOL.search("".join(parts))
        or _RECOVERY_CODE.search("".join(parts))  # (a one-time password: "MFA_RECOVERY_CODE")
        or _JOINED_PASSWORD.search("".join(parts))  # ("mot_de_passe", "motDePasse", "kata_sandi")
    ):
        return "password"  # (a shared secret is a password two ends were given: RADIUS, L2TP, IPsec)
    if any(_SECRET_PART.match(p) for p in parts):
        return "secret"
    if parts[-1] == "seed" and any(p in ("otp", "totp", "hotp", "mfa", "2fa") for p in (before.lower(), *parts[:-1])):
        return "secret"  # a one-time password's seed ("TOTP seed")
    if parts[-1:] in (("key",), ("keys",)) and len(parts) > 1 and parts[-2] in _KEY_QUALIFIER - _SESSION_PART:
        return "secret"  # ("session signing key": the key's own qualifier says what it is)
    if any(p in _SESSION_PART for p in parts) or parts[-1] in ("salt", "salts"):
        return "session"  # (a merchant's salt signs requests; "salt" alone is also prose: right after a separator only)
    if parts[-1] == "auth" or any(p == "auth" and q in ("key", "header") for p, q in itertools.pairwise(parts)):
        return "secret"  # "auth: …", "authKey" (not "auth-service", "authMechanism")
    if len(parts) > 2 and parts[0] == "x" and parts[-1] == "key":
        return "secret"  # a custom HTTP header named a key ("X-Functions-Key", "X-Goog-Api-Key")
    for i, p in enumerate(parts):
        if p in ("key", "keys"):
            prev = parts[i - 1] if i else before.lower()
            if prev in _KEY_QUALIFIER:
                return "secret"
        elif (
            p.endswith("key")
            and (
                p[:-3] in _KEY_QUALIFIER
                # (a config key written as one word: "Pineconeapikey", "Wgprivatekey", "Ddappkey")
                or (len(parts) == 1 and len(p) >= 8 and p[:-3].endswith(_JOINED_KEY_QUALIFIERS))
            )
        ):
            return "secret"
    return None


def _issued_code(value: str) -> bool:
    """Groups of random letters and digits as services issue short codes ("qjb2a-ndanh",
    "ey7r-thxv-ceml"): equal groups, letters and digits mixed in at least one of them."""
    groups = value.split("-")
    return (
        1 < len(groups) <= 4
        and len({len(g) for g in groups}) == 1
        and 4 <= len(groups[0]) <= 8
        and all(g.isalnum() and g.isascii() for g in groups)
        and any(not g.isalpha() and not g.isdigit() for g in groups)
    )


#: Words of prose that a value never is ("identified by their …", "pass the_repository").
_FUNCTION_WORDS = frozenset(
    ["their", "its", "the", "this", "that", "these", "those", "your", "our", "his", "her", "them", "which", "whose"]
)
_ID_ASSIGNMENT = re.compile(r"(?i)(?:req|request|trace|span|correlation|rid)(?:[_-]?id)?=")
_HOW_STORED = re.compile(r"(?i)[a-z0-9]{2,12}-(?:encrypted|hashed|protected|encoded|wrapped|sealed)")
_TYPE_NAME = re.compile(r"(?:System|Microsoft|Windows|Android|Java|Apple|Foundation)(?:\.[A-Z][A-Za-z0-9]*){2,}")
_BACKSLASH_PATH = re.compile(r"[A-Za-z][\w .-]{0,40}(?:\\[\w .-]{1,40}){2,}")


@functools.lru_cache(maxsize=4096)
def _usable(value: str, literal: bool = False) -> bool:
    """Not a placeholder, reference, path or URL: a value that may be a secret. A *literal* (a
    quoted string, a password by its syntax) is no code reference, however dotted."""
    if (
        not value
        or value.lower() in _FUNCTION_WORDS
        or _BACKSLASH_PATH.fullmatch(value) is not None  # ("Software\\Microsoft\\DevStudio")
        or _placeholder(value)
        or _PUBLIC_TOKEN.match(value)
        or (
            not literal
            and _REFERENCE.match(value)
            and not _passphrase(value)
            and not _WORDS_AND_NUMBER.fullmatch(value)
            and not _random_piece(value)
            and not (_BOOTSTRAP_TOKEN.fullmatch(value) and _bootstrap_token(value))
        )
        or ("." in value and _REFERENCE.match(value) and _NAME_LIKE_WORD.search(value.lower()) is not None)
        or (literal and _CODE_REFERENCE.match(value))
        or "://" in value
        or _RUN.search(value)
        or _QUERY.search(value)
        or _address(value)
        or _DATETIME.match(value)
        or (_HOSTNAME.match(value) and (value.islower() or value.isupper()))
        or _TWILIO_SID.match(value)
        or value.startswith(("arn:", "data:", "\\\\"))  # a resource's name; an inline file; a UNC path
        or value.startswith(("CN=", "OU=", "DC=", "UID="))  # a directory's distinguished name
        or _HOW_STORED.fullmatch(value) is not None  # how it is kept ("DPAPI-encrypted", "bcrypt-hashed")
        or value.startswith("ext:")  # wpa_supplicant's reference to an external password store
        or _ID_ASSIGNMENT.match(value) is not None  # a request's id ("req=d58f4a9a960a")
        # another setting's name, listed ("… env vars: SRFAX_ACCESS_PWD, M365_CLIENT_SECRET")
        or (_ENV_NAME_IN.fullmatch(value) is not None and _name_kind(value, "") is not None)
        or _TYPE_NAME.fullmatch(value) is not None  # a type's full name ("System.Security.SecureString")
        or ("_" in value and _MODULE_PATH.fullmatch(value) is not None)  # ("model.layers.0.attn.q_proj")
        or _WORD_PATH.fullmatch(value)  # a relative path of words ("Assets/Editor/Build/ShaderStripper.cs")
        or _REGISTRY_PATH.match(value)  # a Windows registry key ("[HKEY_CLASSES_ROOT\CLSID\{…}]")
        or _SECRET_REF.match(value)  # a secret manager's name for it ("projects/1/secrets/db/versions/2")
        or _CRYPT_HASH.search(value)  # a passwd file's "user:$7$…" line holds a hash
        or _PASSWORD_HASH.match(value)
        or _jwt_header(value)
        or _user_then_placeholder(value)
        or (
            (_ENV_NAME.match(value) or _ENV_NAME_NUMBERED.match(value)) and value.count("_") >= 2
        )  # a variable's name ("IOTHUB_DEVICE_CONNECTION_STRING")
        or (value.startswith("eyJ") and (_sample_jwt(value) or _public_jwt(value)))
        or _regex_source(value)
        or _NOT_A_VALUE.match(value)
        or "***" in value
        or "[redacted:" in value  # (our own marker after a name: "JSESSIONID=[redacted:…]")
        or _MASK_MARKER.fullmatch(value)  # what a CI log prints for a secret ("[MASKED]")
        or _SETTINGS_LIST.match(value)  # a consent or preference cookie's settings ("analytics:0,marketing:1")
        or "•••" in value  # a masked key ("sk_live_****Xw0s")
        or "…" in value  # (an elided one: "sk-ant-…Ri20")
        or _public_point(value)
        or _plain_json(value[value.index("=") + 1 :] if _ASSIGNMENT.match(value) else value)
    ):
        return False
    glued = _GLUED_PREFIX.match(value)
    if glued and not _usable(value[glued.end() :], literal):
        return False  # a reference after a preposition glued on (Hebrew "ב-projects/…/secrets/…")
    if (
        _METHOD_CALL.match(value)
        or (_CALL.match(value) and (not _looks_random(value) or _NESTED_CALL.search(value)))
        or (not literal and _CALL.match(value) and _CHAINED_CALL.search(value))
        or _CALL_OPEN.match(value)
    ):
        return False
    if (_NAME_LIKE.match(value) or _ENV_NAME.match(value)) and _NAME_LIKE_WORD.search(value.lower()):
        return False
    if _ENV_SUFFIX.search(value) and _WORDY.match(value):
        return False  # a variable's name, prefixed per app ("billing_DB_PASSWORD"): where the value is read from
    # a path, unless a random piece of it is long (base64 has "/" in it)
    if not _PATH.match(value):
        return True
    # (a path whose pieces are words is one however random its hash piece: "/nix/store/…/bin")
    pieces = value.split("/")
    return sum(bool(_LETTERS.match(p)) and len(p) <= 12 for p in pieces) < 2 and (
        max(len(p) for p in pieces) >= 12 and _looks_random(value)
    )


#: The fields of a JWT's header (RFC 7515, 7516): the header says how the token is signed.
_JWT_HEADER_FIELDS = frozenset(
    ["alg", "typ", "kid", "cty", "enc", "zip", "crit", "jku", "jwk", "x5u", "x5t", "x5c", "b64"]
)
_USER_PAIR = re.compile(
    r"[\w.@-]{1,64}:(?P<rest>\$\{?[A-Za-z_]\w*\}?|\{\{[^{}]{1,80}(?:\}\}?)?|<[A-Za-z_][\w .-]{0,60}>|%[A-Za-z_]\w*%)$"
)


def _jwt_header(value: str) -> bool:
    """*value* is a JWT's header alone (base64 of {"alg": …, "kid": …}): public in every token,
    and no token without its payload and signature."""
    if not value.startswith("eyJ") or "." in value:
        return False
    decoded = _decoded(value)
    try:
        header = json.loads(decoded) if decoded else None
    except ValueError:
        return False
    return isinstance(header, dict) and "alg" in header and set(header) <= _JWT_HEADER_FIELDS


def _user_then_placeholder(value: str) -> bool:
    """*value* is a user and a variable for the password ("admin:${STATS_PASS}"): a template."""
    return _USER_PAIR.match(value) is not None


def _address(value: str) -> bool:
    """*value* is a mail address or user@host: its host a known domain or an IP, or in lower case
    with a word in it ("Z0rr0@2026.saff", "walrus@1869.Zephyr" are passwords with an "@")."""
    if _ADDRESS.match(value) is None:
        return False
    host = value.rpartition("@")[2]
    if host[-1].isdigit() or _HOSTNAME.match(host):
        return True
    return host.islower() and any(c.isalpha() for c in host.rpartition(".")[0])


def _default_login(text: str, start: int, end: int) -> bool:
    """The URL password at *start*:*end* repeats its user on a loopback host
    ("amqp://guest:guest@localhost"), or is the demo login that Oracle's and SQLAlchemy's docs
    use ("scott:tiger"): a documented default, not a secret."""
    scheme = text.rfind("://", max(0, start - 80), start)
    host = _URL_HOST.match(text, end)
    return (
        scheme >= 0
        and host is not None
        and (
            (host.group("host").lower() in _LOOPBACK and text[scheme + 3 : start - 1] == text[start:end])
            or text[scheme + 3 : end] == "scott:tiger"
        )
    )


def _block_end(text: str, pos: int) -> int:
    """Where the block that *pos* is in closes (its next "}" within 400 characters, else there)."""
    end = text.find("}", pos, pos + 400)
    return end if end >= 0 else min(len(text), pos + 400)


def _declared_name(text: str, value: str) -> bool:
    """*value* is a variable that the text declares ("val storePassword = …" then "storePassword =
    storePassword"): code passing a name on, not a value."""
    return _IDENTIFIER.match(value) is not None and value in _declared_names(text)


@functools.lru_cache(maxsize=8)  # (asked once for each identifier-like value of one text)
def _declared_names(text: str) -> frozenset[str]:
    return frozenset(_DECLARATION.findall(text))


def _id_field(value: str) -> bool:
    """*value* is another field whose name says it is no secret ("request_id=7b09…")."""
    field, eq, _ = value.partition("=")
    if not eq or _WORDY.match(field) is None:
        return False
    last = _name_parts(field)[-1:]
    return last in (("id",), ("ids",), ("name",)) or (bool(last) and last[0] in _DERIVED_LABELS)


#: A name whose pieces are words or short product codes ("m365_app_password", "x509_key_pass").
_CODED_NAME = re.compile(
    r"^(?:[A-Za-z]+\d{0,2}|[A-Za-z]{1,3}\d{1,4}[A-Za-z]{0,2})(?:[_.-]+(?:[A-Za-z]+\d{0,2}|[A-Za-z]{1,3}\d{1,4}[A-Za-z]{0,2}))+$"
)

#: A camel-case name after a short code ("b2ApplicationKey", "s3SecretKey").
_CAMEL_NAME = re.compile(r"^[a-z]{1,12}\d{0,3}(?:[A-Z][a-z]{2,}\d{0,3}){1,5}$")


def _blob(name: str) -> bool:
    """*name* is a piece of a random value, not a name: random, or not made of words and with
    digits through it ("Q8PW7I6UGE70EQIB" holds "PW")."""
    if _WORDY.match(name) or _CODED_NAME.match(name) or _CAMEL_NAME.match(name):
        return False
    return _looks_random(name) or sum(c.isdigit() for c in name) >= 3


def _template(text: str, start: int, end: int) -> bool:
    """The name at *start*:*end* is in angle brackets as a template's slot ("-p<password>"), not
    an XML element holding a value ("<password>…</password>")."""
    if not (start and text[start - 1] == "<" and text.startswith(">", end)):
        return False
    close = text.find("</" + text[start:end] + ">", end, end + 420)
    return close < 0 or "\n" in text[end:close]


_URL_REST = re.compile(r"[^\s/]{1,200}")
#: Elements that hold a name, not a value (`<key>CFBundleVersion</key>` in a property list).
_TAG_NAMES = frozenset(["key", "name", "value", "string", "data"])


def _in_url_authority(text: str, pos: int) -> bool:
    """*pos* is in a URL's user and host part ("postgres://user:password@…"): the URL's password
    is read apart (`_URL_PASSWORD`)."""
    at = text.rfind("://", max(0, pos - 100), pos)
    if at < 0 or any(c.isspace() or c in "/;?&#" for c in text[at + 3 : pos]):
        return False
    rest = _URL_REST.match(text, pos)
    return rest is not None and "@" in rest.group()


def _in_arn(text: str, pos: int) -> bool:
    """*pos* is inside an ARN ("arn:aws:secretsmanager:…:secret:prod/db"): a resource's name."""
    at = text.rfind("arn:", max(0, pos - 120), pos)
    return at >= 0 and not any(c.isspace() for c in text[at:pos])


def _shown_plain(text: str, f: Finding) -> bool:
    """The value at *f* is base64 of a text that the note itself shows ("base64 of 'x' is …")."""
    decoded = _decoded(text[f.start : f.end]) if f.end - f.start <= 400 else None
    return decoded is not None and len(decoded) >= 4 and decoded in text


def _labelled_password(text: str, line_start: int, value: str) -> bool:
    """The line before *line_start* (or the one before a blank line) is a password's label
    ("Password:") and *value* has a password's shape though it holds an "=" ("parj=UUNJCuyc")."""
    prev_start = _previous_line(text, line_start)
    prev = text[prev_start : max(prev_start, line_start - 1)].strip()
    if not prev and prev_start:
        prev = text[_previous_line(text, prev_start) : prev_start - 1].strip()
    return prev.endswith(":") and _line_kind(prev) == "password" and _human_password(value)


def _with_repeats(text: str, found: list[Finding]) -> list[Finding]:
    """*found* and every other place its secrets appear in *text* ("login as: X" / "X@host's
    password:"): a secret is redacted wherever it is written, not only where it was recognised."""
    values = {text[f.start : f.end]: f.kind for f in found if 8 <= f.end - f.start <= 400}
    if not values or len(found) > 50:
        return found
    starts = {f.start for f in found}
    extra: list[Finding] = []
    for value, kind in values.items():
        at = text.find(value)
        while at >= 0 and len(extra) < 50:
            if at not in starts:
                extra.append(Finding(kind, at, at + len(value)))
            at = text.find(value, at + len(value))
    return sorted([*found, *extra], key=lambda f: (f.start, -f.end)) if extra else found


def _in_digest_column(text: str, f: Finding) -> bool:
    """*f* sits under a column headed DIGEST (or a hash's name) in a listing: `fly secrets list`
    prints each secret's digest, never its value."""
    line_start = text.rfind("\n", 0, f.start) + 1
    for m in _DIGEST_COLUMN.finditer(text, 0, line_start):
        head_start = text.rfind("\n", 0, m.start()) + 1
        head_end = _line_end(text, m.end(), 400)
        header = text[head_start:head_end]
        if header.upper() == header and m.start() - head_start == f.start - line_start:
            return True
    return False


_JSON_LEAD = re.compile(r"[{,]?[ \t]*\"[\w.-]{1,40}\"[ \t]*:[ \t]*\"(?=//|#)")


def _json_lead(text: str, pos: int, end: int) -> int:
    """Where a line's own text starts: past a JSON member's opening (`{"text": "// …`) when the
    line opens a quoted file's text."""
    lead = pos
    for m in _JSON_LEAD.finditer(text, pos, end):
        lead = m.end()
    return lead


def _declared_public(text: str, f: Finding) -> bool:
    """A comment on *f*'s line or the line before says the value is public by design (an Algolia
    search-only key, a browser key). Only values judged by shape or by name pass this way."""
    if f.kind not in ("high_entropy", "jwt", "google_api_key"):
        return False
    line_start = text.rfind("\n", 0, f.start) + 1
    prev_start = text.rfind("\n", 0, max(0, line_start - 1)) + 1 if line_start else line_start
    line_end = _line_end(text, f.end, 300)
    for m in _DECLARED_PUBLIC.finditer(text, prev_start, line_end):
        if (
            m.start() < line_start
            and not _COMMENT_LINE.match(text, _json_lead(text, prev_start, line_start))
            and not _ABOUT_NEXT_LINE.match(text, prev_start, line_start - 1)
        ):
            continue  # (the line before counts only as a comment, a question or a command about the next)
        if not _NEGATION.search(text, max(prev_start, m.start() - 12), m.start()):
            return True
    return False


def _documented(span: str) -> bool:
    """A published example value, alone or after its setting's name ("AccountKey=…")."""
    if hashlib.sha256(span.encode()).hexdigest() in _DOCUMENTED_VALUES:
        return True
    named = _SETTING_NAME.match(span)
    return named is not None and hashlib.sha256(span[named.end() :].encode()).hexdigest() in _DOCUMENTED_VALUES


def _span(m: re.Match[str] | None) -> tuple[int, int] | None:
    return m.span("value") if m is not None else None


def _inside(spans: list[tuple[int, int]], f: Finding) -> bool:
    return any(a <= f.start and f.end <= b for a, b in spans)


def _cookie_like(value: str) -> bool:
    """A cookie value that is a token: random, or varied with letters enough (a PHP session id of
    26 lower-case letters and digits; not an analytics id of digits and dots)."""
    value = _unquoted(value)
    return _looks_random(value) or (_varied(value) and sum(c.isalpha() for c in value) * 4 >= len(value))


_ESCAPE = re.compile(r"\\(?:[\"\\/nrt]|u[0-9a-fA-F]{4})")
_ESCAPED = {"n": "\n", "r": "\r", "t": "\t"}


def _unescaped(text: str) -> tuple[str, list[int], list[int]] | None:
    """*text* with a JSON string's escapes decoded (``\\n``, ``\\"``, ``\\uXXXX``), and for each of
    its characters where it starts and ends in *text*; None when *text* has no quote or line
    escaped (nothing to gain)."""
    if '\\"' not in text and "\\n" not in text:
        return None
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for m in _ESCAPE.finditer(text):
        out.append(text[pos : m.start()])
        starts.extend(range(pos, m.start()))
        ends.extend(range(pos + 1, m.start() + 1))
        code = m.group()[1]
        out.append(_ESCAPED.get(code, code) if code != "u" else chr(int(m.group()[2:], 16)))
        starts.append(m.start())
        ends.append(m.end())
        pos = m.end()
    out.append(text[pos:])
    starts.extend(range(pos, len(text)))
    ends.extend(range(pos + 1, len(text) + 1))
    return "".join(out), starts, ends


def _unquoted(value: str) -> str:
    """*value* with its percent-escapes decoded (a cookie's or a query's value)."""
    return urllib.parse.unquote(value) if "%" in value else value


_NEAR_ESCAPE = re.compile(r"\\[\"nrt\\]")
#: A unified diff's hunk header; the lines after it carry a "+", "-" or " " marker.
_HUNK = re.compile(r"(?m)^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@[^\n]*$")


#: A keyword argument with a quoted value: `scope="…"` (a one-letter name is no code's: "C=lLzfFJ175!").
_KEYWORD_ARG = re.compile(r"[(`\"']*(?:[\w.]+\()?([a-z_][a-z0-9_]{1,30})=[\"']")
#: A secret store's methods that read a secret by its name (`dbutils.secrets.get(scope=…, key=…)`).
_STORE_METHODS = ("get", "get_secret", "read", "fetch", "access")
_READS = frozenset([*_STORE_METHODS, "lookup", "load", "getsecret", "getenv"])
_STORE_METHOD_CALLS = tuple(f".{method}(" for method in _STORE_METHODS)
#: The `pass` password store's commands that take an entry's name, and all its commands.
_PASS_SUBCOMMANDS = frozenset(["insert", "show", "generate", "edit", "rm", "otp", "cp", "mv"])
_PASS_COMMANDS = _PASS_SUBCOMMANDS | {"ls", "find", "grep", "init"}
_PASS_COMMAND = re.compile(rf"[ \t]+(?:{'|'.join(sorted(_PASS_COMMANDS))})\b")
_BW_GET = re.compile(r"\b(?:bw|rbw)[ \t]+get[ \t]+$")
#: A setting given on a command line by its path: Zephyr's and embedded shells' `settings set`,
#: `cfg set`, `nvs set`, U-Boot's `setenv`, a CLI's `config set`.
_SETTING_SET = re.compile(
    r"\b(?:(?:settings|cfg|nvs|config)[ \t]+set|fw_setenv|setenv)[ \t]+(?P<name>[\w./:-]{1,100})[ \t]+"
    r"(?P<q>[\"']?)(?P<value>[^\s\"']{1,200})(?P=q)(?=\s|$)"
)
_VAULT_GET = re.compile(r"\bvault[ \t]+(?:kv[ \t]+get|read)\b[^\n]*?[ \t](?P<path>[\w./:-]+)[ \t]*$", re.M)
_VAULT_DATA = re.compile(r"====== Data ======\n(?:Key[ \t]+Value\n-+[ \t]+-+\n)?(?P<rows>(?:[^\n=]+(?:\n|$)){1,50})")
_VAULT_ROW = re.compile(r"(?m)^(?P<name>[\w.-]{1,64})[ \t]{2,}(?P<value>\S(?:[^\n]{0,398}\S)?)[ \t]*$")
_B64_RUN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{24,400}={0,2}(?![A-Za-z0-9+/=_-])")
#: Credentials that security tools print once they recover them (`SecretScanner._recovered`).
_RECOVERED = (
    # "Cracked … : user -> password", hashcat's `--show` (a hash, then ":" and its plain text:
    # Kerberos, NetNTLMv1/2, bare NT), john's `--show` ("user:password:rid:::")
    re.compile(r"(?im)\bcracked\b[^\n]{0,80}?:[ \t]*[\w.@\\$-]{1,64}[ \t]*(?:->|=>|→)[ \t]*(?P<value>\S[^\n]{0,199})$"),
    re.compile(
        r"(?m)^(?:\$krb5(?:tgs|asrep|pa)\$[^\s]{16,8000}|[^\s:]{1,64}::[^\s:]{0,64}:[0-9a-fA-F]{16}:[0-9a-fA-F]{32}:[0-9a-fA-F]{16,4000}"
        r"|[0-9a-fA-F]{32}|\$(?:2[abxy]|1|5|6|apr1|y)\$[^\s:]{8,200})"
        r":(?P<value>[^\s:][^\n]{0,199})$"
    ),
    re.compile(r"(?m)^[\w.$\\-]{1,64}:(?P<value>[^:\s][^:\n]{0,199}):\d{1,10}:(?:[^:\n]*:){2,6}[^:\n]*$"),
    # mimikatz: `lsadump::secrets`' "cur/text:", `sekurlsa::logonpasswords`' "* NTLM :"
    re.compile(r"(?m)^[ \t]*(?:cur|old)/text:[ \t]*(?P<value>\S[^\n]{0,199})$"),
    re.compile(r"(?m)^[ \t]*\*[ \t]*NTLM[ \t]*:[ \t]*(?P<value>[0-9a-fA-F]{32})\b"),
    # an NT hash named so in a note ("local admin NT hash reused across kiosks: …")
    re.compile(r"(?i)\b(?:NT(?:LM)?[ \t-]?hash(?:es)?|nthash)\b[^\n]{0,80}?[:=][ \t]*(?P<value>[0-9a-fA-F]{32})\b"),
    # secretsdump's SAM and NTDS lines: "user:rid:lmhash:nthash:::"
    re.compile(r"(?m)^[^:\s]{1,128}:\d{1,10}:[0-9a-fA-F]{32}:(?P<value>[0-9a-fA-F]{32}):::"),
    # pass-the-hash flags: NetExec / CrackMapExec / evil-winrm `-H NTHASH`, impacket's `-hashes LM:NT`
    re.compile(
        r"\b(?:nxc|netexec|crackmapexec|cme|evil-winrm)\b[^\n]{0,200}?[ \t]-H[ \t]+(?:[0-9a-fA-F]{32}:)?(?P<value>[0-9a-fA-F]{32})\b"
    ),
    re.compile(r"[ \t]-hashes[ \t]+(?:[0-9a-fA-F]{32})?:(?P<value>[0-9a-fA-F]{32})\b"),
    # aircrack-ng's "KEY FOUND! [ … ]", jwt_tool's "[+] … is the CORRECT key!"
    re.compile(r"KEY FOUND! \[ (?P<value>[^\n]{1,63}?) \]"),
    re.compile(r"\[\+\][ \t]+(?P<value>\S{1,200}) is the CORRECT key!"),
    # an impacket target with its password quoted ("sa:'…'@10.0.0.5"), or unquoted before an address
    re.compile(
        r"(?<![\w/:.-])(?:[\w.-]{1,64}/)?[\w.$-]{1,64}:(?P<q>['\"])(?P<value>[^'\"\n]{1,200})(?P=q)@[\w.-]{1,253}"
    ),
    re.compile(
        r"\bimpacket-\w+[ \t]+(?:-\S+[ \t]+)*(?:[\w.-]{1,64}/)?[\w.$-]{1,64}:(?P<value>[^\s'\"@]{1,200})@[\w.-]{1,253}"
    ),
)
_RECOVERY_NEEDS = (
    "racked",
    "--show",
    "/text:",
    "NT",
    "nthash",
    ":::",
    " -H ",
    "-hashes",
    "KEY FOUND",
    "CORRECT key",
    "@",
)
#: A secret store's read: its names on that line name secrets, they hold none.
_SECRET_STORE_LINE = re.compile(
    r"(?i)\b(?:gcloud[ \t]+secrets[ \t]+(?:versions[ \t]+access|describe)|aws[ \t]+secretsmanager[ \t]+"
    r"(?:get-secret-value|describe-secret)|az[ \t]+keyvault[ \t]+secret[ \t]+show|vault[ \t]+(?:kv[ \t]+get|read)"
    r"|doppler[ \t]+secrets[ \t]+get|kubectl[ \t]+(?:get|describe)[ \t]+secrets?|op[ \t]+(?:read|item[ \t]+get))\b"
)
_PASS_VERB = re.compile(
    r"\b(?:to|should|can|could|must|may|might|you|we|they|instead|then|and|or|will|would|please|just|also"
    r"|not|never|simply|can't|cannot|don't|always)[ \t]+$"
)
_MANAGER_ITEM = re.compile(
    r"(?i)\b(?:1password|bitwarden|keepass\w{0,3}|lastpass|dashlane|keeper|passbolt|enpass|vaultwarden)"
    r"[^\n()\"'«“:]{0,40}[(\"'«“:][ \t]*$"
)
#: What sits before a value that is not one: ciphertext only its tool opens (Jasypt's `ENC(…)`,
#: hiera-eyaml's `ENC[PKCS7,…]`), an OpenSSH key fingerprint (`SHA256:` + 43 base64 digits, a
#: digest of a public key), and a systemd unit's `LoadCredential=ID:PATH` (a file's path).
_NOT_A_VALUE_BEFORE = re.compile(
    r"(?:\bENC[(\[](?:PKCS7,)?|\bSHA256:|\b(?:LoadCredential(?:Encrypted)?|ImportCredential)=)$"
    # (the id of a credential a CI keeps, a secret's version: "credentialsId: 'dockerhub-token'")
    r"|\bcredentials?_?[Ii]d[\"']?[ \t]*[:=][ \t]*[\"']?$|[\"'](?:version|etag|kid|x5t)[\"'][ \t]*:[ \t]*[\"']$"
)
#: A secret's name after the words for its stored form, further on the value's line.
_STORED_FORM_BEFORE = re.compile(r"(?i)\b(?:encrypted|hashed)[ \t]+(?:password|passphrase|secret|pw)\b[^\n]{0,80}$")
#: References to a secret kept elsewhere, in the syntax of the tool that reads it: altool's
#: `@keychain:NAME` and `@env:NAME`, TeamCity's `credentialsJSON:UUID`.
_REFERENCE_PREFIX = re.compile(r"@(?:keychain|env):[\w.-]+$|credentialsJSON:[0-9a-f-]{36}$")
#: A name of capitalised words ("Studio", "Office IT"): a vault's or an item's, no password.
_VAULT_NAME = re.compile(r"[A-Z][a-z]+(?:[ \t][A-Z][A-Za-z]+){0,3}")
#: A commit named as where something was deployed or stands ("Deployed auth at <sha> to qa",
#: "HEAD is now at <sha>").
_COMMIT_AT = re.compile(
    r"(?i)\b(?:deployed|released|built|pinned|tagged|reverted|rolled[ \t]+back|is[ \t]+now|checked[ \t]+out)\b[^\n]{0,40}?[ \t]at[ \t]+$"
)
#: The names a secret store lists for an entry's fields ("keys": ["password", "username"]).
_FIELD_NAMES = frozenset(["username", "user", "login", "email", "host", "port", "password", "token", "secret", "key"])


def _firebase_config_key(text: str, f: Finding) -> bool:
    """*f* is the `apiKey` of a Firebase client config, within a few lines of its app id or
    sign-in domain (another Google key in the same text is not)."""
    if not text.startswith("AIza", f.start) or not _CONFIG_API_KEY.search(text, max(0, f.start - 44), f.start):
        return False
    return any(abs(m.start() - f.start) < 400 for m in _FIREBASE_CLIENT.finditer(text, max(0, f.start - 400)))


#: Words that code's identifiers are made of ("decoder_input_ids", "CloudWatchLoggingSession"),
#: and no diceware generator's list would miss: a name made of them is the code's, not a value.
_IDENTIFIER_WORDS = frozenset(
    [
        *("id", "ids", "input", "output", "inputs", "outputs", "enabled", "disabled", "enable", "disable"),
        *("name", "names", "type", "types", "value", "values", "key", "keys", "config", "settings", "setting"),
        *("update", "updates", "get", "set", "list", "dict", "count", "size", "max", "min", "data", "file"),
        *("files", "path", "paths", "url", "uri", "user", "users", "default", "private", "public", "dns"),
        *("http", "https", "api", "client", "server", "request", "response", "error", "errors", "status"),
        *("mode", "option", "options", "flag", "flags", "session", "sessions", "token", "tokens", "auth"),
        *("info", "metadata", "cache", "index", "level", "length", "handler", "manager", "factory", "source"),
        *("target", "start", "end", "stream", "logging", "log", "logs", "model", "models", "graph", "node"),
        *("nodes", "params", "param", "args", "kwargs", "self", "cls", "str", "int", "bool", "bytes", "float"),
        *("none", "true", "false", "class", "object", "instance", "context", "state", "store", "buffer"),
        *("array", "string", "number", "function", "method", "module", "package", "version", "versions"),
        *("marker", "next", "items", "item", "result", "results", "event", "events", "hook", "hooks"),
        *("callback", "credentials", "credential", "policy", "rule", "rules", "format", "provider"),
        *("providers", "service", "services", "base", "callable", "exception", "handle", "parse", "parser"),
        *("serialization", "serializer", "builder", "spec", "schema", "field", "fields", "map", "helper"),
        *("util", "utils", "impl", "interface", "abstract", "proxy", "wrapper", "adapter", "registry"),
        *("validator", "reader", "writer", "loader", "load", "save", "init", "create", "delete", "read"),
        *("write", "open", "close", "run", "build", "make", "new", "ctx", "req", "res", "resp", "err", "msg"),
        *("obj", "val", "var", "arg", "opt", "cfg", "conf", "env", "func", "db", "sql", "query", "table"),
        *("row", "column", "idx", "num", "text", "json", "xml", "yaml", "host", "port", "addr", "address"),
        *("socket", "conn", "connection", "channel", "thread", "task", "job", "worker", "pool", "queue"),
        *("lock", "timer", "time", "timestamp", "timeout", "retry", "limit", "offset", "page", "cursor"),
        *("filter", "sort", "scope", "role", "permission", "access", "identity", "principal", "issuer"),
        *("audience", "claim", "grant", "certificate", "cert", "signer", "signature", "sign", "verify"),
        *("encrypt", "decrypt", "hash", "digest", "authenticated"),
    ]
)
_GENERIC_KINDS = frozenset(["high_entropy", "password"])
_IDENT_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _code_identifier(value: str) -> bool:
    """*value* is code's own name, not a value: a keyword argument with a literal ("stream=False"),
    a union of types ("{string|Buffer}"), or an identifier joined from words (snake_case, dotted,
    PascalCase) two in five of which are words code's names are made of."""
    if re.fullmatch(r"[A-Za-z_]\w{0,39}=(?:True|False|None|null|true|false)", value):
        return True
    if re.fullmatch(r"\{\w+(?:\|\w+)+\}?", value):
        return True
    call = re.fullmatch(r"([A-Za-z_][\w.]*)\(([A-Za-z_][\w.]*)?[^)]*\)?", value)
    if call is not None:
        # a call of a code's name, or with one as its argument: "SSOTokenLoader(cache=…", "Path(constants.HF_…"
        return _code_identifier(call.group(1)) or (call.group(2) is not None and _code_identifier(call.group(2)))
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z][A-Za-z0-9]*)*", value):
        return False
    joined = "_" in value or "." in value or re.search(r"[a-z][A-Z]", value) is not None
    words = [w.lower() for w in _IDENT_PARTS.findall(value) if not w.isdigit()]  # ("Ed25519PrivateKey")
    if not joined or len(words) < 2 or (sum(c.isdigit() for c in value) > 3 and len(words) < 3):
        return False
    if re.search(r"[A-Za-z]\d{2,}$", value):
        return False  # (a chosen password's number at its end: "collect_access_filter_eternal24")
    # (two in five at least: a passphrase of dictionary words may hold one, "brush.height.exhibit.doctor.enable")
    return sum(w in _IDENTIFIER_WORDS for w in words) * 5 >= len(words) * 2 and all(len(w) >= 2 for w in words)


#: A payment API's object ids ("pi_…", "ch_…", "cus_…": Stripe's and those who copied its style).
_OBJECT_ID = re.compile(
    r"\b(?:pi|ch|evt|cus|sub|in|txn|po|pm|seti|src|card|ba|acct|price|py|ii|il|cn|dp|tr)_[A-Za-z0-9]{8,28}\b"
)
_MANAGER_PATH = re.compile(
    r"(?i)\b(?:keepass\w{0,3}|1password|bitwarden|vaultwarden|lastpass|keeper|dashlane|passbolt)[ \t]*(?:>|»|→|/)"
    r"(?:[ \t]*[\w .-]{1,40}[ \t]*(?:>|»|→|/))*[ \t]*$"
)
#: A sentence that announces the value on the next line ("… the client secret for east paddock is below.").
_BELOW = re.compile(
    r"(?i)\bbelow[.:]?$|\bhere[ \t]+(?:it[ \t]+)?is[.:]?$"
    r"|(?:は)?以下(?:の通り)?(?:です|になります)?[。:：]?$|如下[。:：]?$|아래(?:와 같습니다|입니다)?[.:]?$"  # (Japanese, Chinese, Korean)
)
#: A line that hands over what follows without naming it ("Hi! As asked, here it is:").
_HANDOVER = re.compile(
    r"(?i)\b(?:here[ \t]+(?:it[ \t]+)?is|here[ \t]+you[ \t]+go|as[ \t]+(?:asked|requested|promised|discussed)|see[ \t]+below)[.:!]?[ \t]*$"
    # ("Resolution: generated a new one and stored it in the pipeline config:", under "X password expired")
    r"|\b(?:a|the)[ \t]+new[ \t]+one\b[^\n]{0,80}:[ \t]*$"
)
#: PowerShell reading a variable of the environment ("[Environment]::GetEnvironmentVariable('X', 'Machine')").
_PRINTED_ENV = re.compile(
    r"\[Environment\]::GetEnvironmentVariable\([ \t]*[\"'](?P<name>[A-Za-z_][\w-]{2,80})[\"'][^)\n]{0,40}\)[ \t]*$"
)
#: A shell prompt whose command only evaluates a name, so the next line is its value
#: ("PS C:\\> $cfg.aps_client_secret", "$ echo $DB_PASSWORD", "> print(settings.SECRET_KEY)").
_PRINTED_NAME = re.compile(
    r"^(?:PS[ \t][^>\n]{0,120}>|[\w.@~:/-]{0,80}[$#%>])[ \t]*(?:(?:echo|Write-Output|Write-Host|print|printenv|cat)[ \t(]+)?"
    r"[\"']?(?:\$(?:env:)?|\$\{)?(?:[A-Za-z_][\w-]*\.|[A-Za-z_]\w*\[[\"'])*(?P<name>[A-Za-z_][\w-]{2,80})[\"'\]})]*[ \t]*$"
)
_SAMPLE_BEFORE = re.compile(
    r"(?i)(?<![\w.@/-])(?:sample|example)(?:[ \t]+[a-z]{2,12}){0,2}(?:[ \t]+for[ \t]+[^\s:]{1,30})?[ \t]*[:=]?[ \t]*[\"'`]?$"
)
_BANNED_AFTER = re.compile(
    r"[\"']?[^\n.;]{0,80}?\b(?:are|is|get|gets)[ \t]+(?:rejected|refused|banned|blocked|blacklisted|forbidden|not[ \t]+allowed)\b"
)
_BANNED_BEFORE = re.compile(
    r"(?i)\b(?:banned|blocked|forbidden|disallowed|prohibited|blacklist(?:ed)?|denylist(?:ed)?|deny[ \t]+list"
    r"|block[ \t]+list|(?:most[ \t]+)?common(?:ly[ \t]+used)?|breached|weak)\b[^\n.;]{0,80}$"
)


def _not_a_value(text: str, f: Finding) -> bool:
    """*f* is ciphertext, a fingerprint, a credential file's path, or the next name in a list of
    field names, by what stands before it."""
    span = text[f.start : f.end]
    if span.startswith(("ENC(", "ENC[", "ENC:", "hmac-sha256:", "$DCC2$")) or _REFERENCE_PREFIX.match(span):
        # (ciphertext; a reference; Vault's audit log writes each secret as its HMAC; Windows'
        # cached domain credentials are a digest, "mscash2")
        return True
    if re.fullmatch(r"#[a-z0-9][a-z0-9_-]{1,79}", span):
        return True  # a chat channel ("(channel #airport-t2-ops)")
    line_start = text.rfind("\n", 0, f.start) + 1
    if f.kind == "password" and _STORED_FORM_BEFORE.search(text, line_start, f.start):
        return True  # "Encrypted password in Graylog config (AES, …): …", "hashed password: …"
    if (
        f.kind == "password"
        and re.search(r"[^\"'][\"'][,.;)]?$", span)
        and re.search(r"[\"'][^\"'\n/]{1,60}[ \t]+/[ \t]+$", text[max(line_start, f.start - 64) : f.start])
    ):
        return True  # the end of a quoted folder's path ("in Bitwarden collection 'SOC / willow',")
    if re.search(r"\S/[\w./-]*#\w+[ \t]+$", text[max(line_start, f.start - 120) : f.start]):
        return True  # the word after a vault path's field ("vault_path=secret/data/crm/cdk#password site=…")
    if re.match(r"[ \t]+[/+][ \t]+\[redacted:", text[f.end : f.end + 16]):
        return True  # the account of a pair whose password is redacted ("locum1 + [redacted:password]")
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*(?:Id|ID|_id|-id)=[\w.-]{1,64}", span):
        return True  # an id's setting ("TitleId=DB777" after "PlayFab login ok:")
    if span.startswith("SHA256:"):
        return re.fullmatch(r"SHA256:[A-Za-z0-9+/]{43}=?", span) is not None
    if re.fullmatch(r"[0-9a-f]{6,12}", span) and (
        text[f.start - 1 : f.start] == "(" or text[max(0, f.start - 2) : f.start] == "# "
    ):
        return True  # a commit's short id in parentheses or a trailing comment ("(808837b)", "# 8125d7")
    opened = text.rfind("ENC[", line_start, f.start)
    if opened >= 0 and "]" not in text[opened : f.start]:
        return True  # a part of sops' ciphertext ("ENC[AES256_GCM,data:…,iv:…,tag:…]")
    if re.fullmatch(r"[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+=\d{1,20}", span):
        return True  # a setting of digits ("grafana_session_expiry=8552747551": a time)
    if _MANAGER_PATH.search(text, max(line_start, f.start - 80), f.start):
        return True  # a folder of a password manager's tree ("in KeePass > Facilities > CCTV")
    opened = text.rfind("op://", line_start, f.start)
    if opened >= 0 and not re.search(r"[\"'`]|\s[\w.-]{1,60}[=:]", text[opened : f.start]):
        return True  # the rest of a 1Password reference whose item has a space ("op://Office/Wi-Fi 5G/password")
    if text.endswith(("WIFI:", "WIFI:S:"), max(0, f.start - 7), f.start) or span.startswith("WIFI:S:"):
        return True  # a Wi-Fi QR code's network name (its password is the `P:` field)
    if _SAMPLE_BEFORE.search(text, max(line_start, f.start - 40), f.start):
        return True  # a value given as a sample ("Sample header value … from a test event")
    if f.kind == "password" and (
        _BANNED_BEFORE.search(text, max(line_start, f.start - 120), f.start) or _BANNED_AFTER.match(text, f.end)
    ):
        # a policy's list of passwords it refuses ("banned list includes 'Password1', …",
        # "'changeme', 'password1' … are rejected by the checker")
        return True
    opened = text.rfind("{{", line_start, f.start)
    if opened >= 0 and "}}" not in text[opened : f.start] and "}}" in text[f.end : _line_end(text, f.end, 300)]:
        return True  # (inside a template's expression: `{{ lookup('hashi_vault', 'secret=kv/…') }}`)
    if re.fullmatch(r"[0-9a-f]{7,12}|[0-9a-f]{40}", span) and _COMMIT_AT.search(text, max(0, f.start - 60), f.start):
        return True
    if _MANAGER_ITEM.search(text, max(0, f.start - 40), f.start) and (
        _JOINED_NAME.fullmatch(span) or _VAULT_NAME.fullmatch(span)
    ):
        # an item's or a vault's name in a password manager: "… now in Bitwarden
        # (game_backend_postgres)", "1Password 'Studio' 금고에 있음"
        return True
    m = _NOT_A_VALUE_BEFORE.search(text, max(0, f.start - 40), f.start)
    if m is not None:
        if m.group().startswith("SHA256"):
            return re.fullmatch(r"[A-Za-z0-9+/]{43}=?", span) is not None
        if m.group().startswith(("Load", "Import")):
            return ":/" in span or span.startswith("/")
        return True
    if span.lower() in _FIELD_NAMES and text[f.start - 1 : f.start] in "\"'":
        return re.search(r"[\"'][ \t]*,[ \t]*$", text[max(0, f.start - 6) : f.start - 1]) is not None
    return False


def _spans(found: list[Finding]) -> tuple[list[int], list[int]]:
    """*found*'s starts in order, and the furthest end among the findings up to each."""
    starts: list[int] = []
    reach: list[int] = []
    for f in sorted(found, key=lambda f: f.start):
        starts.append(f.start)
        reach.append(max(f.end, reach[-1]) if reach else f.end)
    return starts, reach


def _overlaps(spans: tuple[list[int], list[int]], f: Finding) -> bool:
    starts, reach = spans
    i = bisect.bisect_left(starts, f.end)
    return i > 0 and reach[i - 1] > f.start


def _confirmed(text: str, f: Finding, inner: tuple[list[int], list[int]], passed: tuple[list[int], list[int]]) -> bool:
    """Whether a finding in a JSON-escaped text stands: the unescaped text finds it too, or finds
    nothing there, when no escape runs through the value ("AKIA…\\n…" is a value run into the
    next line). What the unescaped text judges a look-alike passes."""
    if _overlaps(inner, f):
        return True
    if _overlaps(passed, f):
        return False
    return not any(m.group() != "\\\\" for m in _NEAR_ESCAPE.finditer(text, f.start, min(len(text), f.end + 1)))


def _undiffed(text: str) -> tuple[str, list[int], list[int]] | None:
    """*text* with the markers of a unified diff's hunk lines taken off, and for each character
    where it starts and ends in *text*; None when *text* has no hunk."""
    if "@@ -" not in text:
        return None
    first = _HUNK.search(text)
    if first is None:
        return None
    out: list[str] = [text[: first.end()]]
    starts = list(range(first.end()))
    ends = list(range(1, first.end() + 1))
    pos = first.end()
    while pos < len(text):
        nl = text.find("\n", pos)
        stop = len(text) if nl < 0 else nl + 1
        line_start = pos
        if text[pos] in "+- " and not text.startswith(("+++ ", "--- "), pos):
            line_start = pos + 1
        out.append(text[line_start:stop])
        starts.extend(range(line_start, stop))
        ends.extend(range(line_start + 1, stop + 1))
        pos = stop
    return "".join(out), starts, ends


def _mapped(findings: list[Finding], starts: list[int], ends: list[int]) -> list[Finding]:
    """*findings* in a reading of a text (unescaped, or without diff markers) placed back in the
    text itself: *starts* / *ends* give each reading position's first / last text position."""
    return [Finding(f.kind, starts[f.start], ends[f.end - 1]) for f in findings if f.end > f.start]


class SecretScanner:
    """Finds secrets in strings. Stateless after construction: one instance serves every
    thread."""

    def __init__(self) -> None:
        self._plugins = [(kind, cls()) for kind, cls in _PLUGINS.items()]

    def scan(self, text: str) -> list[Finding]:
        """The secrets in *text*, by position, overlapping ones merged (the earlier kind wins)."""
        found = self._judged(text)
        view = _unescaped(text)
        if view is not None:
            # a file quoted inside a JSON string (a tool call's result, a log's payload): read it
            # as the file it is, then map what is found back to the escaped text. What the escaped
            # text alone shows (a value run into "\\n…", a name hidden behind "\\"") is kept only
            # where no escape is near it: the file as it reads decides
            plain, starts, ends = view
            looks: list[Finding] = []
            inner = _mapped(self._judged(plain, looks), starts, ends)
            passed = _mapped(looks, starts, ends)
            inner_spans, passed_spans = _spans(inner), _spans(passed)
            found = [f for f in found if _confirmed(text, f, inner_spans, passed_spans)] + inner
        found.sort(key=lambda f: (f.start, -f.end))
        merged: list[Finding] = []
        for f in found:
            if merged and f.start < merged[-1].end:
                last = merged[-1]
                merged[-1] = Finding(last.kind, last.start, max(last.end, f.end))
            else:
                merged.append(f)
        return merged

    def _judged(self, text: str, looks: list[Finding] | None = None) -> list[Finding]:
        """What *text* holds, judged as it reads: a unified diff's hunks without their "+", "-" and
        " " markers (the file as changed), then the look-alikes that pass removed (into *looks*)."""
        hunks = _undiffed(text)
        if hunks is not None:
            body, starts, ends = hunks
            passed: list[Finding] = []
            kept = _mapped(self._passed(body, passed), starts, ends)
            if looks is not None:
                looks += _mapped(passed, starts, ends)
            return kept
        return self._passed(text, looks)

    def _passed(self, text: str, looks: list[Finding] | None = None) -> list[Finding]:
        found = list(self._find(text))
        found.sort(key=lambda f: (f.start, -f.end))
        if found:
            found = _with_repeats(text, found)
        if looks is not None:
            looks += found
        if "encryptedData" in text:  # (a SealedSecret's ciphertext opens only in its cluster)
            sealed = [m.span() for m in _ENCRYPTED_DATA.finditer(text)]
            found = [f for f in found if not _inside(sealed, f)]
        # (a base64 value whose plain text the note shows is an example of the encoding)
        found = [f for f in found if not _shown_plain(text, f)]
        if found and _DIGEST_COLUMN.search(text):
            found = [f for f in found if not _in_digest_column(text, f)]
        if found and "SCRAM-SHA-" in text:
            # (a PostgreSQL role's stored SCRAM verifier, however a name before it is read)
            scram = [m.span() for m in _SCRAM.finditer(text)]
            found = [f for f in found if not _inside(scram, f)]
        if found and "ENC " in text:
            # FortiOS writes a stored password as `set passwd ENC <ciphertext>`: encrypted on the device
            found = [f for f in found if not text.endswith("ENC ", 0, f.start)]
        if found and "-secrets" in text:
            # Cloud Run's `--set-secrets=ENV=NAME:VERSION,…` names secrets in Secret Manager, never a value
            refs = [m.span("list") for m in _SECRETS_FLAG.finditer(text)]
            found = [f for f in found if not _inside(refs, f)]
        if found and ("(" in text or "belongs" in text):
            # (a value its format names as an id: "session row c6xy… (cuid2)")
            found = [f for f in found if not _ID_ANNOTATION.match(text, f.end)]
        # (a vendor's or a standard's published example value is no one's secret)
        found = [f for f in found if not _documented(text[f.start : f.end]) and not _not_a_value(text, f)]
        if found:
            # (code's own names where a value might stand: "key: EllipticCurvePrivateKey", "stream=False")
            found = [f for f in found if f.kind not in _GENERIC_KINDS or not _code_identifier(text[f.start : f.end])]
        if found and _DECLARED_PUBLIC.search(text):
            found = [f for f in found if not _declared_public(text, f)]
        if found and "AIza" in text and _FIREBASE_CLIENT.search(text):
            # a Firebase app's client config (it names the app or its sign-in domain): its API
            # key ships inside every copy of the app and Google documents it as no secret
            found = [f for f in found if not _firebase_config_key(text, f)]
        return found

    def _find(self, text: str) -> Iterator[Finding]:
        yield from self._formats(text)
        yield from self._syntax(text)
        hints = list(_NAME_HINT.finditer(text))  # (the words that may name a secret, found once)
        yield from self._named(text, hints)
        yield from self._tables(text, bool(hints))
        yield from self._sections(text)
        yield from self._sql_rows(text)
        yield from self._value_first(text)
        yield from self._lone_values(text)
        yield from self._keys(text)
        yield from self._code(text)
        yield from self._replies(text)
        yield from self._answers(text)
        yield from self._otp(text)
        yield from self._pins(text)
        yield from self._outputs(text)
        yield from self._recovered(text)
        yield from self._wrapped(text)
        yield from self._vault_tables(text)
        yield from self._paragraphs(text)

    def _formats(self, text: str) -> Iterator[Finding]:
        for m in _PRIVATE_KEY.finditer(text):
            if _KEY_BODY.search(m.group(0)):  # (not "-----BEGIN … KEY----- [redacted] -----END …")
                yield Finding("private_key", m.start(), m.end())
        active = _active(text, _FORMAT_GATE)  # (a substring test is far cheaper than a pattern)
        plugins = len(self._plugins)
        for kind, plugin in (self._plugins[i] for i in active if i < plugins):
            # the plugins' own patterns, matched here for their positions (their
            # `analyze_string` gives a pattern's groups when it has any: "ghp" for a GitHub token)
            for index, pattern in enumerate(plugin.denylist):
                for m in pattern.finditer(text):
                    if kind == "basic_auth" and (
                        _placeholder(m.group(1))
                        or m.group(1).upper() in _PASSWORD_SLOTS
                        or _default_login(text, m.start(1), m.end(1))
                        or "[redacted:" in m.group(0)
                    ):
                        continue  # "mongodb+srv://<username>:<password>@…"; our own marker
                    if kind == "twilio_key" and (
                        m.group().startswith("AC") or _NAMED_ID.search(text, max(0, m.start() - 24), m.start())
                    ):
                        # Twilio documents "AC…" as the Account SID, the account's identifier (the
                        # user of its Basic pair; the Auth Token is the secret); gitleaks matches only "SK…"
                        continue
                    if kind == "jwt" and (
                        not JwtTokenDetector.is_formally_valid(m.group(0))
                        or _sample_jwt(m.group(0))
                        or _public_jwt(m.group(0))
                    ):
                        continue
                    # "AKIA" then X's, ".../" then X's: documentation placeholders
                    if (
                        _entropy(m.group(0)) < 2.5
                        or _RUN.search(m.group(0))
                        or "EXAMPLE" in m.group(0)
                        or _sequential(m.group(0))
                    ):
                        continue
                    # the password of a URL, the key named after "aws … secret": the group
                    start, end = m.span(1) if kind == "basic_auth" or (kind == "aws_access_key" and index) else m.span()
                    if kind == "jwt":  # (its pattern ends lazily, before the signature)
                        end = _JWT_TAIL.match(text, end).end()  # type: ignore[union-attr]
                    if end > start:
                        yield Finding(kind, start, end)
        for kind, pattern in (_TOKEN_ITEMS[i - plugins] for i in active if i >= plugins):
            for m in pattern.finditer(text):
                # (a format with fixed runs of its own is judged by its random part)
                if _RUN.search(m.group("body") if "body" in pattern.groupindex else m.group(0)) or _sequential(
                    m.group(0)
                ):
                    continue
                if kind in _RANDOM_BODY and not _looks_random(m.group(0).rsplit("_", 1)[-1].rsplit("-", 1)[-1]):
                    continue  # (a prefix then a word: "rzp_test_placeholderkeyvalue")
                if kind == "live_key" and m.group().startswith("cs_"):
                    continue  # a Stripe Checkout Session's id ("cs_live_…"), no key
                if kind == "live_key" and m.group().startswith("key_") and "branch" in text.lower():
                    continue  # Branch's SDK key ships inside every copy of the app (its secret is "secret_…")
                yield Finding(kind, m.start(), m.end())

    def _syntax(self, text: str) -> Iterator[Finding]:
        """Credentials that the syntax around them names: URLs, headers, command lines, files.
        (Each pattern runs only when a substring it needs is in the text: the scan is on every
        store.)"""
        low = text.lower()
        for m in _URL_PASSWORD.finditer(text) if ":/" in text else ():
            value = m.group("value")
            if (
                not _placeholder(value)
                and value.upper() not in _PASSWORD_SLOTS
                and "[redacted:" not in m.group()  # (a token redacted in the URL's user part)
                and not _default_login(text, m.start("value"), m.end("value"))
            ):
                yield Finding("basic_auth", m.start("value"), m.end("value"))
        if "://" in text:
            for m in _URL_TOKEN.finditer(text):
                host = _URL_HOST.match(text, m.end("value"))
                line = text.rfind("\n", 0, m.start()) + 1
                if "sentry" in (host.group("host") if host else "") or "dsn" in text[line : m.start()].lower():
                    # a Sentry DSN's key is public by Sentry's docs (it only submits events and ships
                    # to browsers); only the legacy "public:secret@" form holds a secret (a URL password)
                    continue
                if _looks_random(m.group("value")):
                    yield Finding("high_entropy", m.start("value"), m.end("value"))
            for m in _PATH_KEY.finditer(text):
                name = next(g for g in ("hook", "alchemy", "infura", "quicknode", "hue", "ical") if m.group(g))
                value = m.group(name)
                if _varied(value.replace("/", "")) or (name != "hook" and _looks_random(value)):
                    yield Finding("webhook_url" if name == "hook" else "high_entropy", m.start(name), m.end(name))
            for m in _AUTH_LINK.finditer(text):
                name = "token" if m.group("token") else "qvalue"
                path = m.group("path") if name == "token" else m.group("qpath")
                value = _unquoted(m.group(name))
                if _AUTH_PATH.search(path) and not _UUID.match(value) and (_looks_random(value) or _hex_key(value)):
                    yield Finding("high_entropy", m.start(name), m.end(name))
        for m in _ELASTIC_API_KEY.finditer(text) if "==" in text else ():
            try:
                decoded = base64.b64decode(m.group("value"), validate=True).decode("ascii")
            except (ValueError, UnicodeDecodeError):
                continue
            if _ELASTIC_DECODED.fullmatch(decoded) and _looks_random(decoded.split(":")[1]):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        # values their syntax makes keys: a file installation key's digit groups, a Perforce ticket
        for m in itertools.chain(
            _INSTALLATION_KEY.finditer(text) if "installation" in low or "fik" in low else (),
            _P4_TICKET.finditer(text) if "p4" in low or "perforce" in low or "helix" in low else (),
        ):
            if not _sequential(m.group("value").replace("-", "")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _WP_SALT.finditer(text) if "_KEY" in text or "_SALT" in text else ():
            group = "value" if m.group("value") else "bare"
            value = m.group(group)
            if _entropy(value) >= 4.5 and not _placeholder(value):
                yield Finding("high_entropy", m.start(group), m.end(group))
        for m in _KEY_FILE_LINE.finditer(text) if ".key" in low or ".secret" in low or ".token" in low else ():
            # a key file's path as the label of its content ("config/credentials/prod.key: …")
            if not _PUBLIC_FILE.search(m.group("file")) and _looks_random(m.group("value")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _WALLET_KEY.finditer(text) if "0x" in text or "key" in low or "wallet" in low else ():
            # a wallet's private key where a library takes one (Hardhat's `accounts: ["0x…"]`,
            # web3's `Account.from_key`, ethers' `new Wallet(…)`)
            if _looks_random(m.group("value")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _QUOTED_THEN_NAME.finditer(text) if "`" in text else ():
            # "`…` (Datadog key, prod)", "`…` for user postgres": the name or the login after the value
            value, name = m.group("value"), m.group("name") or ""
            if not _usable(value, True):
                continue
            if m.group("user"):
                if _chosen_password(value) or _looks_random(value):
                    yield Finding("password", m.start("value"), m.end("value"))
            elif _SECRET_NOUN.search(name) and (
                _looks_random(value) or _chosen_password(value) or _UUID.match(value) or _hex_key(value)
            ):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _NEW_VALUE.finditer(text) if "new " in low or "set it to" in low else ():
            # "use the new signing secret … new value is …": a rotation's note gives the new secret
            # under a name said before it
            value = m.group("value").rstrip(".,;:)")
            named = _SECRET_NOUN.search(text, max(0, m.start() - 300), m.start())
            if named and _usable(value) and len(value) >= 16 and _looks_random(value):
                yield Finding("high_entropy", m.start("value"), m.start("value") + len(value))
            elif (
                named
                and _usable(value)
                and _line_kind(text[max(0, m.start() - 300) : m.start()]) in ("password", "secret")
                and (_human_password(value) or _chosen_password(value) or _passphrase(value))
            ):
                # a rotated password's new value ("after we rotated the iDRAC root password … New one is …")
                yield Finding("password", m.start("value"), m.start("value") + len(value))
        for m in _ANNOUNCED_VALUE.finditer(text) if any(n in low for n in _ANNOUNCED_NEEDS) else ():
            line_start = max(text.rfind("\n", 0, m.start()) + 1, m.start() - 300)
            named_line = text[line_start : m.start()]
            kind = _line_kind(named_line)
            if kind is None and line_start > 0 and not named_line.strip(" \t-*•>"):
                # (the label opens its line, or a bullet's: the sentence above named the secret, "… password
                # …\nCurrent value: …"; not a setting about passwords, "password reset link expiry\nCurrent value: 24hours")
                above = _previous_line(text, line_start)
                named_line = text[above : line_start - 1]
                if not named_line.strip() and above > 0:  # (one blank line between)
                    named_line = text[_previous_line(text, above) : above - 1]
                kind = None if _POLICY_WORDS.search(named_line) else _line_kind(named_line)
                if kind is not None and _SETTING_VALUE.fullmatch(m.group("value").rstrip(".,;:)")):
                    continue
            if kind is None:
                continue
            value = m.group("value").rstrip(".,;:)")
            if kind == "password":
                # (an announced passphrase may end its clause at a ";": "Replaced it with w w w w; …")
                spoken = self._phrase_at(text, m.start("value"), True) or _span(
                    _ANNOUNCED_PHRASE.match(text, m.start("value"))
                )
                if spoken is not None and _spaced_phrase(text[spoken[0] : spoken[1]]):
                    yield Finding("password", *spoken)
                    continue
                ok = len(value) >= 6 and (
                    _credential_like(value) or _human_password(value) or _passphrase(value) or _chosen_password(value)
                )
            else:
                ok = _looks_random(value) or _hex_key(value) or _app_password(value)
                # (Postmark's and Heroku's tokens are UUIDs: one counts where a token is named)
                ok = ok or (
                    _UUID.fullmatch(value) is not None
                    and _API_KEY_WORDS.search(named_line) is not None
                    and not re.search(r"(?i)\bid\b", named_line)  # (not "the API key's id")
                )
            if ok and _usable(value, bool(m.group("q"))):
                yield Finding(
                    "password" if kind == "password" else "high_entropy",
                    m.start("value"),
                    m.start("value") + len(value),
                )
        for m in _KLIST_KEY.finditer(text) if "klist" in low or "keytab" in low else ():
            yield Finding("high_entropy", m.start("value"), m.end("value"))  # `klist -K` prints each key
        for m in _EMAIL_TOKEN.finditer(text) if "/token:" in text else ():
            if _looks_random(m.group("value")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _SHORT_PAIR.finditer(text) if "AK" in text else ():
            if _looks_random(m.group("value")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _AWS_PAIR.finditer(text) if "AKIA" in text or "ASIA" in text else ():
            if _looks_random(m.group("value")) and "EXAMPLE" not in m.group():
                yield Finding("aws_secret_key", m.start("value"), m.end("value"))
        for m in _URL_SIGNATURE.finditer(text) if "sig" in low else ():
            value = _unquoted(m.group("value"))
            end = m.end("value")
            if value.endswith(")") and "(" not in value:
                value, end = value[:-1], end - 1  # (the URL closes a Markdown link)
            while value[-1:] in (".", ",", ";"):
                value, end = value[:-1], end - 1  # (the sentence goes on after the URL)
            # (SigV4 and GCS V4 signatures are hex: a digest's alphabet, but one that grants access)
            signed = m.group().lower().startswith(("?x-", "&x-")) and len(value) >= 64 and _HEX.fullmatch(value)
            if _looks_random(value) or signed:
                yield Finding("high_entropy", m.start("value"), end)
        for m in _VENDOR_HEADER.finditer(text) if "honeycomb" in low else ():
            if _looks_random(m.group("value")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _COOKIE_JAR.finditer(text) if "\tTRUE\t" in text or "\tFALSE\t" in text else ():
            value = m.group("value").rstrip()
            cookie = _name_parts(m.group("name"))
            if cookie[-1:] == ("id",) and not _cookie_name(m.group("name")) and not {"auth", "token"} & set(cookie):
                continue  # an analytics or device id ("ajs_anonymous_id"), not a session
            if _usable(value) and _cookie_like(value):
                yield Finding("high_entropy", m.start("value"), m.start("value") + len(value))
        for m in _BOOTSTRAP_TOKEN.finditer(text) if "token" in low else ():
            value = m.group("value")
            before = text[max(0, text.rfind("\n", 0, m.start()) + 1, m.start() - 200) : m.start()].lower()
            if ("token" in before or "kubeadm" in before) and _bootstrap_token(value):
                yield Finding("kubernetes_token", m.start("value"), m.end("value"))
        for m in _URL_KEY.finditer(text) if "=" in text else ():
            name = "value" if m.group("value") else "code"
            value = _unquoted(m.group(name))
            if _usable(value) and _looks_random(value):
                yield Finding("high_entropy", m.start(name), m.end(name))
        for m in _AUTH_HEADER.finditer(text) if "auth" in low or "bearer" in low else ():
            # the header says it is a credential: only a placeholder or a word is not one
            value = m.group("value").rstrip(".,:")
            if value.endswith(")") and "(" not in value:
                value = value[:-1]  # (the header quoted in parentheses)
            value = re.sub(r"%[0-9A-Fa-f]?$", "", value)  # (a "%" that escapes nothing ends the value)
            # (not "the bearer ab12-cd34 header")
            issued = _issued_code(value) and "uthorization" in text[max(0, m.start() - 30) : m.end()]
            if _usable(value) and (_looks_random(value) or _UUID.match(value) or _varied(value) or issued):
                yield Finding("high_entropy", m.start("value"), m.start("value") + len(value))
        for m in _RTMP_KEY.finditer(text) if "rtmp" in low else ():
            if _looks_random(m.group("value")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _QUOTED_BEARER.finditer(text) if "bearer" in low else ():
            # a quoted header's token may hold any symbol ("Bearer s4jw!ey6k7(7br#…"): up to the quote
            value = m.group("value")
            if _usable(value) and _looks_random(value):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        for m in _BASIC.finditer(text) if "basic" in low else ():
            if _basic_pair(m.group("value")) or (_HEX.fullmatch(m.group("value")) and _looks_random(m.group("value"))):
                yield Finding("basic_auth", m.start("value"), m.end("value"))
        commands = _active(low, _COMMAND_GATE)
        passwords = len(_COMMAND_PASSWORDS)
        for pattern, _ in (_COMMAND_PASSWORDS[i] for i in commands if i < passwords):
            for m in pattern.finditer(text):
                if m.groupdict().get("value2"):  # ("creds are jsmith:…": only a password's shape)
                    value = m.group("value2").rstrip(".,;)")
                    if _usable(value) and (_human_password(value) or _passphrase(value)):
                        yield Finding("password", m.start("value2"), m.start("value2") + len(value))
                    continue
                value = m.group("value")
                if (m.groupdict().get("plugin") or "").lower().endswith("_hash"):
                    continue  # ClickHouse's `IDENTIFIED WITH sha256_hash BY '…'` gives the password's hash
                if (len(value) < 6 and not any(c.isalnum() for c in value)) or "[redacted:" in text[
                    max(0, m.start("value") - 10) : m.end("value")
                ]:
                    continue  # (a field left empty in a colon-separated line: "…:::"; our own marker)
                if _usable(value, True) and "$" not in value[:2]:
                    yield Finding("password", m.start("value"), m.end("value"))
        for m in _JOINED_PAIR.finditer(text) if " + " in text or " / " in text else ():
            user, value = m.group("user"), m.group("value")
            before = text[max(0, m.start() - 100) : m.start()]
            if (
                not user.isdigit()
                and "://" not in value
                # (code: "(x + 1)**Rational(1, 3)", "sourceIndex + RegExp.$1.length", "phone_number / phone_number_verified")
                and not any(c in value for c in "()[]{}")
                and ("@" in user or not re.search(r"[a-z][A-Z]", user))
                and not re.fullmatch(r"[a-z]+(?:_[a-z]+)+|[\w$]*(?:\.\$?\w+)*\.\$\w*(?:\.\w+)*", value)
                and not _OBJECT_ID.match(user)  # (two of a payment API's objects: "pi_… / ch_…")
                and (
                    _SIGN_IN_WORDS.search(f"{before} {user}")
                    or any(_foreign(h.group()) == "password" for h in _NAME_HINT.finditer(before))
                    or "@" in user
                    or "\\" in user
                    or ",DC=" in user.upper()  # (a directory's DN binds as an account)
                )
                and _usable(value)
                and (_human_password(value) or _passphrase(value) or _random_letters(value))
            ):
                yield Finding("password", m.start("value"), m.end("value"))
        for m in _ACCOUNT_PAIR.finditer(text) if " / " in text or "admin/" in low or "root/" in low else ():
            value = m.group("value")
            if _OBJECT_ID.match(value) and _OBJECT_ID.search(text, max(0, m.start("value") - 40), m.start("value")):
                continue  # two of a payment API's objects ("ch_… / pi_…"), no account and its password
            if _usable(value) and (_credential_like(value) or _passphrase(value) or _random_letters(value)):
                yield Finding("password", m.start("value"), m.end("value"))
        # a PgBouncer `userlist.txt` line pasted without its name: `"user" "password"`
        for m in _USERLIST.finditer(text) if '" "' in text and "userlist" not in low else ():
            value = m.group("value")
            if len(value) >= 6 and _usable(value) and (_credential_like(value) or _human_password(value)):
                yield Finding("password", m.start("value"), m.end("value"))
        # a password typed where the shell history shows a command (`sudo -i`, `su -`) prompted for it
        for m in _PROMPTED.finditer(text) if "su" in text else ():
            value = m.group("value")
            if _usable(value) and not _LETTERS.match(value) and (_human_password(value) or _passphrase(value)):
                yield Finding("password", m.start("value"), m.end("value"))
        for m in _USER_THEN_P.finditer(text) if " -p" in text else ():
            command = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
            value = m.group("value")
            if not _MYSQL_COMMAND.search(command) and _usable(value) and "$" not in value[:2]:
                yield Finding("password", m.start("value"), m.end("value"))
        # a name and its value in fields of their own: a KV store's `put NAME=VALUE`, a change
        # log's `field=NAME … new_value=VALUE`
        for m in itertools.chain(
            _KV_PUT.finditer(text) if " put" in text else (),
            _FIELD_VALUE.finditer(text) if "value=" in low else (),
        ):
            kind = _name_kind(m.group("name"), "")
            value = m.group("value")
            if kind and _usable(value, True) and self._accepts(value, kind, _name_parts(m.group("name")), True):
                yield Finding("password" if kind == "password" else "high_entropy", m.start("value"), m.end("value"))
        for m in _CFN_PARAMETER.finditer(text) if "Default:" in text else ():
            kind = _name_kind(m.group("name"), "")
            value = m.group("value")
            if kind and _usable(value) and self._accepts(value, kind, _name_parts(m.group("name")), True):
                yield Finding("password" if kind == "password" else "high_entropy", m.start("value"), m.end("value"))
        for m in _LOGIN_ARGUMENT.finditer(text) if " login " in text else ():
            value = m.group("value")
            if _usable(value) and _looks_random(value):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        reports = itertools.chain(_PYTEST_ASSERT.finditer(text), _PYTEST_ASSERT_RIGHT.finditer(text))
        for m in reports if "\nE " in text else ():
            name = m.group("name")
            kind = _setting_kind(name)
            value = m.group("value")
            if kind and _usable(value, True) and self._accepts(value, kind, _name_parts(name), True):
                yield Finding("password" if kind == "password" else "high_entropy", m.start("value"), m.end("value"))
        for m in _TF_VARIABLE.finditer(text) if "variable" in text else ():
            name = m.group("name")
            kind = _setting_kind(name)
            value = m.group("value")
            if kind is None and _SENSITIVE_TRUE.search(text, m.start(), _block_end(text, m.end())):
                # (`sensitive = true`: Terraform hides it from every plan; an id or a name may be so too)
                if (
                    _usable(value)
                    and _looks_random(value)
                    and not _RESOURCE_ID.fullmatch(value)
                    and not _JOINED_NAME.fullmatch(value)
                ):
                    yield Finding("high_entropy", m.start("value"), m.end("value"))
                continue
            if kind and _usable(value) and self._accepts(value, kind, _name_parts(name), True):
                yield Finding("password" if kind == "password" else "high_entropy", m.start("value"), m.end("value"))
        for m, v in _name_values(text) if "value" in low else ():
            name = m.group("name")
            kind = _name_kind(name, "")
            value = v.group("value").rstrip(".,;)]}")
            quote = text[v.start("value") - 1]
            close = text.find(quote, v.end("value"), _line_end(text, v.end("value"), 400)) if quote in "\"'" else -1
            if close > v.end("value"):
                # a quoted value with blanks in it: an app password's groups, a passphrase, a header's scheme
                spaced = text[v.start("value") : close]
                if name.lower() in ("authorization", "proxy-authorization"):
                    # an HTTP header as a name/value pair (a HAR file's `headers`)
                    scheme, _, token = spaced.partition(" ")
                    at = v.start("value") + len(scheme) + 1
                    token = token.strip()
                    if scheme.lower() == "basic" and _basic_pair(token):
                        yield Finding("basic_auth", at, at + len(token))
                    elif (
                        scheme.lower() != "digest"
                        and len(token) >= 16
                        and _usable(token)
                        and (_looks_random(token) or _UUID.match(token) or _varied(token))
                    ):
                        yield Finding("high_entropy", at, at + len(token))
                    continue
                if kind == "password" and (
                    _spaced_phrase(spaced)
                    or _APP_PASSWORD.fullmatch(spaced)
                    or (name.lower().endswith(("code", "codes")) and _SPACED_CODE.fullmatch(spaced))
                ):
                    yield Finding("password", v.start("value"), close)
                    continue
            if kind in (None, "secret") and "cookie" in low and _cookie_name(name) and _usable(value):
                if _cookie_like(value):  # a cookie in a browser's export
                    yield Finding("high_entropy", v.start("value"), v.start("value") + len(value))
                    continue
                if kind is None:
                    continue
            if kind is None and _BARE_KEY.match(name):
                kind = "key"  # ("keyName": "key1": an account's key)
            if kind and _usable(value) and self._accepts(value, kind, _name_parts(name), True):
                yield Finding(
                    "password" if kind == "password" else "high_entropy",
                    v.start("value"),
                    v.start("value") + len(value),
                )
        for m in _XML_PROPERTY.finditer(text) if "<value" in low or "<string" in low or "<data" in low else ():
            name = m.group("name") or m.group("name2") or m.group("name3")
            kind = _name_kind(name, "")
            value = m.group("value")
            if kind and _usable(value) and self._accepts(value, kind, _name_parts(name), True):
                yield Finding("password" if kind == "password" else "high_entropy", m.start("value"), m.end("value"))
        if "data" in text:
            yield from self._k8s(text)
        if "cookie" in low or " -b" in text:  # (curl's "-b NAME=VALUE" sends a cookie)
            yield from self._cookies(text)
        for m in _SESSION_COOKIE.finditer(text) if "sid=" in low or "sessionid=" in low or "_session=" in low else ():
            value = m.group("value").rstrip(".,)")
            if _usable(value) and (_cookie_like(value) or _hex_key(value)):  # (a servlet's JSESSIONID is hex)
                yield Finding("high_entropy", m.start("value"), m.start("value") + len(value))
        for pattern, _ in (_COMMAND_SECRETS[i - passwords] for i in commands if i >= passwords):
            for m in pattern.finditer(text):
                name = next(
                    g for g in pattern.groupindex if g in ("value", "hex", "pass", "k", "random") and m.group(g)
                )
                value = m.group(name)
                if _usable(value) and "$" not in value[:2] and (name not in ("hex", "random") or _looks_random(value)):
                    yield Finding("password", m.start(name), m.end(name))
        for m in _LICENSE_BLOCK.finditer(text) if "BEGIN LICEN" in text else ():
            yield Finding("high_entropy", m.start(), m.end())
        # (a note that files it as a software licence, "License: …", "product key for …", keeps a
        # licence for an install, no account's credential: gitleaks and trufflehog have no rule for them)
        licence = text.count("-") >= 4 and _LICENCE_NOTE.search(text) is not None
        for m in _PRODUCT_KEY.finditer(text) if text.count("-") >= 4 and not licence else ():
            groups = m.group().split("-")
            letters = sum(c.isalpha() for c in m.group())
            if sum(any(c.isdigit() for c in g) for g in groups) >= 3 and letters >= 8 and not _sequential(m.group()):
                yield Finding("high_entropy", m.start(), m.end())
        for m in _KEYTAB.finditer(text) if "BQI" in text else ():
            raw = base64.b64decode(m.group() + "=" * (-len(m.group()) % 4))
            if raw[:2] == b"\x05\x02" and len(raw) > 4 and int.from_bytes(raw[2:6], "big", signed=True) > 0:
                yield Finding("high_entropy", m.start(), m.end())
        for m in _SETTING_SET.finditer(text) if " set " in text else ():
            # a device shell's or a CLI's `settings set golioth/psk "…"`: the path's last piece names it
            found = self._named_setting(re.split(r"[/.:]", m.group("name"))[-1], m.group("value"), m.start("value"))
            if found is not None:
                yield found
        for m in _ECHO_INTO_FILE.finditer(text) if "echo" in text or "printf" in text else ():
            file, group = m.group("file"), "value" if m.group("value") else "bare"
            value = m.group(group)
            if (
                value.startswith("$")
                or "=$" in value
                or (file is not None and (not _SECRET_FILE.search(file) or _PUBLIC_FILE.search(file)))
            ):
                continue
            if _usable(value, True) and (_looks_random(value) or self._accepts(value, "password", (), False)):
                yield Finding("password", m.start(group), m.end(group))
        for m in _CAT_SECRET_FILE.finditer(text) if "cat" in text else ():
            file, value = m.group("file"), m.group("value")
            if (
                not _SECRET_FILE.search(file)
                or _PUBLIC_FILE.search(file)
                or not _usable(value)
                or "[redacted:" in value
            ):
                continue  # (a line whose secret is redacted already: ".pgpass" fields around our marker)
            if _looks_random(value):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
            elif self._accepts(value, "password", (), False):
                # a file that holds one password prints it alone ("/etc/ldap.secret", "~/.vault_pass")
                yield Finding("password", m.start("value"), m.end("value"))

    def _cookies(self, text: str) -> Iterator[Finding]:
        """Cookie values that look random: a session id, a signed session, a remember-me token
        (not "theme=dark" nor an analytics id of digits)."""
        bodies: list[tuple[int, str, bool]] = []
        for m in _COOKIE_HEADER.finditer(text):
            bodies.append((m.start("pairs"), m.group("pairs"), bool(m.group("set"))))
        for m in _COOKIE_DICT.finditer(text):
            for p in _DICT_PAIR.finditer(m.group("body")):
                value = p.group("value")
                if _usable(value) and _cookie_like(value):
                    start = m.start("body") + p.start("value")
                    yield Finding("high_entropy", start, start + len(value))
        for offset, pairs, first_only in bodies:
            for i, p in enumerate(_COOKIE_PAIR.finditer(pairs)):
                if first_only and i:
                    break  # Set-Cookie's attributes ("Path=/", "Max-Age=…")
                value = p.group("value").rstrip(".,)")
                if _usable(value) and _cookie_like(value):
                    yield Finding("high_entropy", offset + p.start("value"), offset + p.start("value") + len(value))

    def _k8s(self, text: str) -> Iterator[Finding]:
        """Kubernetes Secret data: its values are base64, so their entropy says little; a value
        that decodes to text is a secret in a `kind: Secret`, or under a secret-sounding key."""
        secret_doc = _K8S_KIND.search(text) is not None
        bodies = [(m.start("body"), m.group("body")) for m in _K8S_YAML_DATA.finditer(text)]
        bodies += [(m.start("body"), m.group("body")) for m in _K8S_JSON_DATA.finditer(text)]
        for offset, body in bodies:
            for m in _K8S_PAIR.finditer(body):
                value = m.group("value")
                decoded = _decoded(value)
                if decoded is None:
                    continue
                if secret_doc or (_name_kind(m.group("name"), "") and _credential_like(decoded)):
                    yield Finding("k8s_secret", offset + m.start("value"), offset + m.end("value"))
        for m in _K8S_JSONPATH.finditer(text):
            if _decoded(m.group("value")) is not None:
                yield Finding("k8s_secret", m.start("value"), m.end("value"))

    def _named(self, text: str, hints: list[re.Match[str]] | None = None) -> Iterator[Finding]:
        """A value beside a secret-sounding name: right after its separator, or a few words on
        within the line ("auth token for the SMS sender: …")."""
        n = len(text)
        covered = 0  # the end of the last name read: a hint inside it is the same name
        # how far the words after a name of each kind were read in vain: read each once, so
        # text made of names ("pw pw pw …") stays linear
        scanned = {"password": 0, "secret": 0, "session": 0, "key": 0, "service_key": 0, "value": 0, "account": 0}
        password_lines: dict[int, bool] = {}  # whether the line starting there names a password
        line_start = line_seen = 0
        # (what most texts lack is looked for once, not at every name)
        urls = "://" in text
        env_flags = any(f in text for f in (" -e ", "--env", "--build-arg", "--secret"))
        lowered = text.lower()
        wifi = any(w in lowered for w in _WIFI_NEEDS) and _WIFI_WORD.search(text) is not None
        logs = any(level in text for level in _LOG_LEVELS)
        snmp = "community" in lowered and _SNMP_WORD.search(text) is not None
        store_reads = "secret" in lowered and _SECRET_STORE_LINE.search(text) is not None
        for m in hints if hints is not None else _NAME_HINT.finditer(text):
            start, end = m.start(), m.end()
            if start < covered:
                continue
            low = max(0, start - 60)
            while start > low and text[start - 1] in _IDENT_CHARS:
                start -= 1
            high = min(n, end + 60)
            while end < high and text[end] in _IDENT_CHARS:
                end += 1
            # (an account's word may start a longer name: "WLAN-Schlüssel" is read at its "Schlüssel")
            covered = end if m.group().lower() not in _ACCOUNT_HINTS else covered
            name = text[start:end]
            flag = name.startswith("-")  # "--password VALUE", "-storepass VALUE"
            stripped = name.rstrip(".-@$")
            end -= len(name) - len(stripped)
            name = stripped.lstrip(".-@$")
            if (
                not name
                # a password manager's item named after it ("# 1Password: Twilio prod")
                or (
                    name.lower() in _PASSWORD_MANAGERS
                    and (text.startswith(":", end) or _KEPT_IN.search(text, max(0, start - 16), start))
                )
                or (
                    start > 8 and text[start - 1] == '"' and _HCL_BLOCK.search(text, max(0, start - 14), start)
                )  # (a resource's type)
                # the entry a vault holds it under: "is in the vault (secret sftp-ham-01)", "no cofre (segredo …)"
                or (
                    start
                    and text[start - 1] == "("
                    and _IN_A_VAULT.search(text, max(0, start - 50), start)
                    and not _SETTING_AFTER.match(text, end)
                )
                or (text[start] == "$" and not _ASSIGNED.match(text, end))  # ("$apiKey = '…'" sets it)
                or (
                    start
                    and text[start - 1] in "/{%$"
                    and not _TOPIC_VALUE.fullmatch(text, text.rfind("\n", 0, start) + 1, _line_end(text, end))
                )
                or (
                    start and text[start - 1] == "(" and _HASH_CALL.search(text, max(0, start - 8), start)
                )  # "sha256(key)"
                or (start and text[start - 1] == ":" and _in_arn(text, start))
                or text.startswith("[redacted:", start - 10)  # (a kind in our own marker)
                or _template(text, start, end)
                or (start and text[start - 1] == "<" and text.startswith(">", end) and name.lower() in _TAG_NAMES)
                or _blob(name)
                or _NOT_A_NAME.fullmatch(name)
                or text.startswith(("+", "/"), end)  # (inside base64: "…IPw+wF…", "…VPw/Ef…")
                or _INDEXED_NAME.match(text, end)  # (a prefix of a longer key: "credentials[0].private-key-location")
                or _TEMPLATE_OPEN.search(text, max(0, start - 4), start)  # a template's variable ("{{ db_password }}")
                or (urls and _in_url_authority(text, start))  # ("postgres://user:password@host")
                # a logger ("DEBUG auth: …"); a setting the log line prints is still one ("DEBUG password=…")
                or (logs and _LOG_LEVEL.search(text, max(0, start - 12), start) and not text.startswith("=", end))
                or (env_flags and _ENV_FLAG.search(text, max(0, start - 16), start) and not text.startswith("=", end))
                # "pass" as a verb: "you should instead pass `targets=…`", "to pass :data:`h11.CLIENT`"
                or (name == "pass" and _PASS_VERB.search(text, max(0, start - 24), start) is not None)
                # the `pass` password store's command and its entry: "pass insert lab/login2"
                or (name == "pass" and _PASS_COMMAND.match(text, end) is not None)
                # a method of a secret store named so: `dbutils.secrets.get(scope=…)`
                or text.startswith(_STORE_METHOD_CALLS, end)
                # Bitwarden's CLI reading a field of an item: `bw get password ITEM-ID`
                or _BW_GET.search(text, max(0, start - 16), start) is not None
                # a secret store's read naming the secret: `--secret-id db/rds`, `--secret=api-key` (the
                # command is looked for once a text, then near the name within its line)
                or (
                    store_reads
                    and _SECRET_STORE_LINE.search(
                        text, max(text.rfind("\n", 0, start) + 1, start - 200), _line_end(text, start, 100)
                    )
                    is not None
                )
                # a call of a function or a class so named: `ClientSecretCredential(tenant_id=…)`
                or (
                    text.startswith("(", end)
                    and ((name[:1].isupper() and not name.isupper()) or name.rsplit(".", 1)[-1].lower() in _READS)
                )
                # a lookup's key, the call's one argument: `Variable.get("steam_api_key")`, `getenv('TOKEN')`
                or (text[start - 2 : start] in ('("', "('") and text.startswith(('")', "')"), end))
            ):
                continue  # part of a value or a path, not a name; `docker run -e NAME` passes it on
            if text.startswith((",", ")"), end) and not text.startswith((',"', ', "', ",'", ", '"), end):
                line_start = max(start - 120, text.rfind("\n", max(0, start - 120), start) + 1)
                opened = text.rfind("(", line_start, start)
                if opened > line_start and text[opened - 1].isalnum() and ")" not in text[opened:start]:
                    continue  # a variable passed to a call ("Pbkdf2(password, salt, …)")
            if name.lower() in ("tokens", "token") and _COUNT_BEFORE.search(text, max(0, start - 16), start):
                continue  # a count of a model's tokens ("4930053 tokens"), no credential
            foreign = _foreign(m.group())
            before = ""  # the word before a bare "key" or "token": "admin key", "API token"
            if foreign is not None:
                parts = (*_name_parts(text[start : m.start()]), foreign)
                kind = "password" if foreign == "password" else None
            else:
                parts = _name_parts(name)
                if parts and parts[0] in ("key", "keys", "token", "secret", "code", "codes"):
                    word = _BEFORE.search(text, max(0, start - 30), start)
                    before = word.group(1).lower() if word else ""
                    if before == "page" and _ADMIN_PAGE.search(text, max(0, start - 40), start):
                        before = "admin"  # an admin page's token ("/admin page token") logs in; no page cursor
                kind = _name_kind(name, before)
            if (
                kind is None
                and (_BARE_KEY.match(name) or foreign == "key")
                and before not in _ID_QUALIFIER | _NOT_KEY_QUALIFIER
            ):
                kind = "key"  # a bare "key: …", taken when its value is plainly random
                word = _BEFORE.search(text, max(0, start - 30), start) if before else None
                if word and _PRODUCT_NAME.fullmatch(word.group(1)) and before not in _NOT_PRODUCT:
                    kind = "secret"  # a product's key ("the Datadog key: …") is its API key, hex or not
            if kind is None and parts[-2:] in (("primary", "key"), ("secondary", "key")):
                kind = "key"  # Azure's key pairs ("primaryKey"): a random one is a key, a column's name is not
            if kind is None and _vendor_key(name, parts):
                kind = "secret"  # "KAGGLE_KEY=…": a service's key in the environment
            elif kind is None and _vendor_key(name, parts, any_case=True):
                kind = "service_key"  # "kaggle_key", "kaggleKey": in code also a theme's or a query's key
            if kind == "key" and (
                _USER_FIELD.search(text, max(0, start - 120), start)
                or _LOGIN_CALL.search(text, max(0, start - 40), start)
            ):
                kind = "secret"  # a key beside its user's name ("kaggle.json"), a login's key ("wandb.login(key=…)")
            if (
                kind == "key"
                and wifi
                and (
                    any(_WIFI_WORD.fullmatch(p) for p in (before, *parts))
                    or _WIFI_WORD.search(text, max(0, start - 300), start)  # (a config block's: "config wifi-iface")
                )
            ):
                kind = "password"  # a network's key is its password ("WLAN key", "wifi …, key …")
            if kind is None and parts[-1:] == ("community",) and (snmp or _SETTING_AFTER.match(text, end)):
                # (an SNMP community; elsewhere only a password-shaped one, and only where the word
                # is a setting's name: "Parkside Community Pharmacy: pi_…" names a pharmacy)
                kind = "password" if snmp else "account"
            if kind is None and _account_name(parts):
                # "admin: …", "the wifi is …": a person's password, if one follows; unless the line
                # names the password itself ("guest wifi is 'TP-Link_4F2A', password is on the …")
                newline = text.rfind("\n", line_seen, start)  # (the hints come in order: read each span once)
                line_start = newline + 1 if newline >= 0 else line_start
                line_seen = start
                if line_start not in password_lines:  # (each line is searched once)
                    line_end = text.find("\n", end)
                    line_end = n if line_end < 0 else line_end
                    password_lines[line_start] = _PASSWORD_WORD.search(text, line_start, line_end) is not None
                kind = None if password_lines[line_start] else "account"
            if kind is None:
                continue
            if before:
                parts = (before, *parts)
            if _COMMAND_OPTION.match(text, end) and _COMMAND_START.search(text, max(0, start - 8), start):
                continue  # a program ("sshpass -f …", "htpasswd -b …"), not a name
            modifier = _NEXT_WORD.match(text, end)
            label = _NEXT_LABEL.match(text, end)
            if not flag and modifier and modifier.group(1).lower() in _CLI_VERBS and kind != "password":
                continue  # a CLI's command on a stored secret ("bws secret get <id>"): what follows names it
            if not flag and (
                (modifier and modifier.group(1).lower() in _NAME_MODIFIES)
                or (label and label.group(1).lower() in _NAME_MODIFIES)
            ):
                # the name qualifies a noun ("token refresh", "password policy"): only a password
                # a person chose, said to be one, counts ("the password field … reads Kessler2022!")
                if kind != "password":
                    continue
                kind = "account"
            found = self._value_after(text, end, kind, parts, scanned, flag, start)
            if found is not None and not _NEGATED.search(text, max(0, start - 12), start):
                yield found  # (not after "no password; staff network uses 802.1X …": there is none)

    def _value_after(
        self,
        text: str,
        pos: int,
        kind: str,
        parts: tuple[str, ...],
        scanned: dict[str, int],
        flag: bool = False,
        name_start: int = -1,
    ) -> Finding | None:
        label = "password" if kind in ("password", "account") else "high_entropy"
        code_name = kind == "password" and bool(parts) and parts[-1].endswith(("code", "codes"))  # (a recovery code's)
        sep = _SEP.match(text, pos)
        if kind == "account":
            # an account's own value: a password in a properties file ("admin=…,admin"), if shaped like one
            if sep is not None and sep.group("sep") in ("=", ":") and sep.end() >= scanned["value"]:
                vm = _VALUE.match(text, sep.end())
                value = vm.group().rstrip(".,;:)]}") if vm else ""
                if vm is not None:
                    scanned["value"] = vm.end()  # (judged once, as for the other names)
                community = parts[-1:] == ("community",) and len(value) >= 8 and _credential_like(value)
                if vm is not None and _usable(value) and (_human_password(value) or community):
                    return Finding(label, vm.start(), vm.start() + len(value))
            sep = None
        if (
            sep is not None
            and sep.group("sep") in ("=", ":", "??", "||")
            and _NO_VALUE_AFTER.match(text, sep.end() - 1)
        ):
            # nothing given: a comment after an empty value ("TOKEN=  # in 1Password"), a template's
            # slot ("password: <choose-one>"), code after a fallback ("?? throw new …")
            if sep.group("sep") in ("=", ":") or text[sep.end() - 1] not in "\"'`":
                return None
        session = kind == "session"
        salt_words = False
        if session:  # (a value right after its separator only)
            if sep is None or sep.group("sep").isspace():
                if parts[-1:] not in (("salt",), ("salts",)):
                    return None
                salt_words = True  # (a site's salt a few words on, when it is long and random: Drupal's hash_salt)
            kind = "secret"
        # an app password's four groups: quoted or after "=" ("Password: will also need some" is prose)
        if (
            sep is not None
            and kind == "password"
            and (sep.group("sep") in ("=", ":=", "?=") or text[sep.end() - 1] in "\"'`")
        ):
            am = _APP_PASSWORD.match(text, sep.end())
            if am is not None and _entropy(am.group("value").replace(" ", "")) >= _APP_ENTROPY - 0.4:
                return Finding(label, am.start("value"), am.end("value"))
        if code_name and sep is not None:
            # (Google prints its backup codes as "1234 5678", GitHub its recovery codes as "12ab5-9f0c3")
            code = _SPACED_CODE.match(text, sep.end()) or _DASHED_CODE.match(text, sep.end())
            if code is not None and any(c.isdigit() for c in code.group("value")):
                return Finding(label, code.start("value"), code.end("value"))
        if sep is not None and kind == "password":
            phrase = (_QUOTED_PHRASE if text[sep.end() - 1] in "\"'`" else _SEP_PHRASE).match(text, sep.end())
            if phrase is not None and _spaced_phrase(phrase.group("value")):
                return Finding(label, phrase.start("value"), phrase.end("value"))
        if sep is not None and text[sep.end() - 1] in "\"'":
            # a quoted value with the symbols a salt generator draws from (WordPress's has ",;<>")
            close = text.find(text[sep.end() - 1], sep.end(), sep.end() + 201)
            body = text[sep.end() : close] if close > 0 else ""
            if (
                len(body) >= 32
                and not any(c.isspace() for c in body)
                and sum(not c.isalnum() for c in body) >= 8
                and _looks_random(body)
                and _usable(body)
            ):
                return Finding(label, sep.end(), close)
        if sep is not None and sep.end() >= scanned["value"]:
            vm = _VALUE.match(text, sep.end())
            if vm is not None and text[sep.end() - 1] in "\"'`" and text[vm.end() : vm.end() + 1].isspace():
                vm = None  # a quoted title, not a value ("check 1Password, \"Staging admin\"")
            elif vm is not None and text[sep.end() - 1] in "\"'`" and _KEY_AFTER.match(text, vm.end()):
                vm = None  # the next field's key, not a value ("DB_PASSWORD", "valueFrom": "arn:…")
            elif (
                vm is not None
                and kind != "password"
                and sep.group("sep").isspace()
                and text[sep.end() - 1] in "\"'"
                and _NAME_LIKE.match(vm.group())
            ):
                vm = None  # an item's quoted name, not its value ('Datadog key "etl-nightly-staging" (id …)')
            elif vm is not None and sep.group("sep") == ":" and _EMOJI.match(text, sep.start("sep")):
                vm = None  # a chat's emoji (":white_check_mark:"), not a value
            raw = vm.group() if vm is not None else ""
            if vm is not None and not (
                sep.group("sep").isspace() and (raw.endswith(":") or ("=" in raw and _SETTING_ASSIGNMENT.match(raw)))
            ):
                # (a label is not the value: "account key (prod): …"; nor another name's
                # assignment: "ansible_user=svc_auth ansible_ssh_private_key_file=…")
                # a value is judged once: names inside a rejected one ("session=session=…") are
                # part of it, so text made of names stays linear
                scanned["value"] = vm.end()
                if "://" in raw and "?" in raw:
                    # (a URL is no value, but the names in its query are names: "pass jdbc:…?password=…")
                    scanned["value"] = vm.start() + raw.index("?")
                lead, value = _cjk_trimmed(vm.group())
                query = _QUERY_NEXT.search(value)
                if query and _QUERY_REST.match(value, query.start()):
                    value = value[: query.start()]  # "?user=app&password=…&ssl=true": up to the next field
                value = value.rstrip(".,;:)]}»”")
                shown = (
                    _unmasked(text, vm.start() + lead, kind) if text.startswith(("*", "•"), vm.start() + lead) else None
                )
                if shown is not None:
                    return Finding(label, *shown)  # a value half masked: the rest is shown
                # a separator, a command's flag or a quote says the value is the name's; so does a
                # config line of the name and the value alone
                literal = text[sep.end() - 1] in "\"'`"
                explicit = (
                    not sep.group("sep").isspace()
                    or (flag and text[pos] in " \t")
                    or literal
                    or (
                        # (a name that starts its line, then one value that ends it: a config file's
                        # `spark.authenticate.secret VALUE`, isync's `Pass VALUE`)
                        name_start >= 0
                        and not text[vm.start() + lead + len(value) : _line_end(text, vm.end(), 200)].strip()
                        and _starts_line(text, name_start)
                    )
                )
                usable = (
                    len(value) >= 4 and _usable(value, literal) and not (not literal and _declared_name(text, value))
                )
                if usable and not _id_field(value) and self._accepts(value, kind, parts, explicit):
                    if (
                        kind == "password"
                        and value.isalpha()
                        and _DEFAULT.search(text, vm.end(), _line_end(text, vm.end(), 80))
                    ) or _EXAMPLE_COMMENT.match(text, vm.end()):
                        return None  # a documented default or example ("minioadmin  # default"), not a secret
                    return Finding(label, vm.start() + lead, vm.start() + lead + len(value))
                if explicit and (
                    _placeholder(value)
                    or _REFERENCE.match(value)
                    or _NOT_A_VALUE.match(value)
                    or _SECRET_REF.match(value)
                    or (sep.group("sep") in ("=", ":") and len(value) >= 4 and not usable)
                ):
                    return None  # "token: ${{ secrets.TOKEN }}", a hash, a host: what follows is theirs
        if (session and not salt_words) or kind == "service_key":
            return None  # (a value right after its separator only)
        if scanned[kind] >= pos + _WORD_WINDOW:
            return None  # (the words in reach were read for an earlier name)
        line_end = text.find("\n", pos, pos + _WORD_WINDOW + 400)
        stop = min(pos + _WORD_WINDOW + 400, len(text) if line_end < 0 else line_end)
        minimum = 6 if kind == "password" else 8
        argument = False  # the next word is an option's argument ("--project NAME")
        weak: Finding | None = None  # a password candidate of letters and digits only
        found: Finding | None = None  # a candidate, unless a labelled value follows in a few words
        found_at = 0
        previous = previous_raw = ""
        labelled = False  # the word follows a label or a copula ("…: X", "… is X")
        kept = False  # the words said where the value is kept
        since_label = 99  # words since the last label or copula
        budget, window = _WORD_COUNT, _WORD_WINDOW
        begin = max(pos, scanned[kind])
        if begin > pos and kind != "password":
            # (resuming where an earlier name's read stopped: an id's word before it still names
            # what follows, "… token has expired. (request 6b4d…)")
            last = text[max(pos, begin - 40) : begin].rsplit(None, 1)[-1:]
            if last and last[0].strip(_TRIM).lower() in _ID_WORDS:
                previous = last[0].strip(_TRIM).lower()
        for count, wm in enumerate(_WORDS.finditer(text, begin, stop)):
            if count >= budget or wm.start() >= pos + window:
                break  # (a value starts within the window and may run past it)
            if found is not None and count >= found_at + 4:
                break
            scanned[kind] = wm.end()
            word = wm.group()
            offset = wm.start()
            field = _VALUE_FIELD.match(word)
            if field:  # "Got the API key from dana. Value=…"
                word = word[field.end() :]
                offset += field.end()
            elif labelled and (assigned := _WORD_ASSIGNMENT.match(word)) and _setting_kind(word[: assigned.end() - 1]):
                word = word[assigned.end() :]  # the value given as its setting ("… is admin_password=…")
                offset += assigned.end()
            lead, word = _cjk_trimmed(word)
            offset += lead
            # (where the value is read from is no value: "password is read from billing_DB_PASSWORD")
            # (and where it is kept: "password is in Bitwarden under 'infra / sandbox'")
            # (and whose it is: "password for the 3d-printer image", "запись crates-io-82" in a manager)
            named_id = previous in _ID_WORDS or (
                (
                    previous in _OWNER_WORDS
                    or (
                        previous == "on"
                        and not _ON_IS_NAME.search(text, max(0, pos - 24), pos)
                        and not _FINNIC.search(text)
                    )
                )
                and not word.endswith(":")
                and not previous_raw.endswith(":")
            )
            after_label, labelled = labelled, False
            prior, previous, previous_raw = previous, word.strip(_TRIM).lower(), word
            if previous in _VALUE_WORDS:
                # "… Current value, set today by priya: X": the value is announced, read on to it
                budget, window = count + 8, max(window, wm.end() - pos + 80)
            if _HASH_CALL_WORD.match(word) or _DIGEST_WORD.fullmatch(word.strip(_TRIM)):
                break  # what follows is a digest ("… stores sha256(key) only: <hex>", "only sha256 of …")
            if word.lower() in ("something", "anything", "whatever"):
                break  # no value given: "set admin_password to something other than 'changeme' before …"
            if _CALL_OPEN.match(word):
                continue  # a call: its argument follows ("urlBase64ToUint8Array('…')")
            keyword = _KEYWORD_ARG.match(word)
            if keyword is not None and not _name_kind(keyword.group(1), ""):
                continue  # another name's argument ("get(scope=\"neuroimaging-2026\", …")
            if prior == "pass" and previous in _PASS_SUBCOMMANDS:
                argument = True  # the `pass` store's entry ("pass insert lab/login2")
                continue
            if argument or text[offset - 1 : offset] == "<" or named_id:
                argument = False
                continue  # an option's argument; a template's slot ("<ask-the-team>"); "request 7f…"
            if word.startswith("-") and _OPTION_ASSIGN.match(word):
                continue  # "--key-file=…": the option's own value (a secret option is a name of its own)
            option = _OPTION.match(word)
            if option:
                # its argument is its own, unless the option says it is a value ("--body …")
                argument = not any(p in _VALUE_OPTIONS or _name_kind(p, "") for p in _name_parts(option.group(1)))
                continue
            value = word.strip(_TRIM).lstrip("=")  # (the separator, when the value after it was judged)
            since_label += 1
            if (word.endswith(":") and value) or word in (":", "=", ":="):
                # (a label apart from its name, as JSON reads: "key_id" ":" "key_…")
                label_parts = _name_parts(value if value else prior)
                if (len(label_parts) > 1 and label_parts[-1] in _ID_LABELS) or (
                    label_parts and label_parts[-1] in _DERIVED_LABELS
                ):
                    # another field's label claims the value ("credentialsId: 'app-nexus'"); a
                    # word alone is still a label ("passphrase for the key file: …")
                    argument = True
                    continue
                if kind == "account" and offset and text[offset - 1] in "\"'":
                    break  # another field's quoted key ("login": "svc", "extra": {"account": …})
                labelled, since_label = True, -1
                budget = max(budget, count + 2)  # (the labelled value may be the word past the count)
                continue  # a label: the value follows it ("password for db1: …")
            if previous in _COPULAS or word in _ARROWS:
                labelled, since_label = True, -1
                continue
            if (after_label and previous in _KEPT_WORDS) or (count == 0 and previous in _SEE_WORDS):
                # where the value is kept, not the value ("… is on the sticker", "password: see …"):
                # only a value a later label gives counts ("(paper copy is in the safe): …")
                found = weak = None
                kept = True
                continue
            if (
                prior in ("in", "into", "under", "from")
                and previous in _MANAGER_NAMES
                and text[wm.end() : wm.end() + 2].lstrip()[:1] in ("'", '"', "‘", "“", "«")
            ):
                kept = True  # ("key in Bitwarden 'BFH-Devices'": the entry's name follows)
                continue
            if kept and not after_label:
                continue
            if kind == "account":
                # a person's password said to be one: the first or second word after a label or a
                # copula ("admin: sync-bot TZgK…", "the wifi is …"), shaped like one
                if 0 <= since_label <= 1:
                    # (a symbol that ends the word may be the password's: "… reads Kessler2022!")
                    for shown_value in (word.strip("\"'`()[]{}").rstrip(".,;:"), value):
                        if shown_value and _usable(shown_value) and _human_password(shown_value):
                            offset += word.index(shown_value)
                            return Finding(label, offset, offset + len(shown_value))
                continue
            shown = _unmasked(text, wm.start(), kind) if word.startswith(("*", "•")) else None
            if shown is not None:
                return Finding(label, *shown)  # a value half masked: the rest is shown
            if kind == "password":
                spoken = self._phrase_at(text, wm.start(), after_label, found is None and weak is None, parts)
                if spoken is not None:
                    return Finding(label, *spoken)
                code = _SPACED_CODE.match(text, wm.start()) if code_name else None
                if code is not None:
                    return Finding(label, *code.span("value"))  # ("recovery codeは 4567 4268 です")
            if word == "//" and text[max(0, wm.start() - 2) : wm.start()].rstrip().endswith((";", ")", "{")):
                # a statement's trailing comment ("…must be set\")?; // 3d23…"): no value of the name's;
                # (the words of a later name stop here too)
                scanned[kind] = wm.start()
                break
            if (
                (_WORD_ASSIGNMENT.match(word) and not after_label)
                or word in _CODE_WORDS  # (code around a name: "… ?? throw new …")
                or _SSH_KEY_TYPE.match(word)
                or (count < 3 and value.lower() in _NOT_SECRET_WORDS)
            ):
                break  # another name's assignment; a public key; an id ("token id …", not "… Apple ID")
            if kind == "password" and after_label and _pin_like(value):
                return Finding(label, offset + word.index(value), offset + word.index(value) + len(value))
            if kind != "password" and _LETTERS.match(value) and _name_kind(value, prior):
                # a nearer name: the value after it is its ("… failing auth again, the Heroku API
                # key is …" is judged as an API key's)
                parts = (prior, *_name_parts(value))
                continue
            if len(value) < minimum or (_LETTERS.match(value) and _name_kind(value, "")):
                continue  # (a name of letters is another mention: "it's in 1Password")
            if kind != "password" and (_CAMEL_WORDS.match(value) or _SETTING_PAIR.match(value)):
                continue  # a type's or a field's name in prose ("the SharedAccessSignature has expired"), a setting
            if salt_words and not (len(value) >= 24 and _three_classes(value) and _looks_random(value)):
                continue

            if (
                _usable(value)
                and not _id_field(value)
                and not _NAMED_ID.search(text, max(0, offset - 25), offset)  # ("keyID 0051…", "bucketId …")
                and self._accepts(value, kind, parts, False)
                and not _KEY_AFTER.match(text, wm.end())  # (an object's key, escaped or not: '\"XF8f\": …')
            ):
                offset += word.index(value)
                candidate = Finding(label, offset, offset + len(value))
                if after_label:
                    return candidate  # (a labelled value over an earlier word: "for the XEPDB1 wallet: …")
                if found is not None:
                    continue
                if kind == "password" and weak is None and not _strong(value):
                    weak = candidate
                    continue  # (maybe a user's name: "the password of user emma47 is …")
                found, found_at = candidate, count
        return found or weak

    def _phrase_at(
        self, text: str, pos: int, labelled: bool, bracketed: bool = True, parts: tuple[str, ...] = ()
    ) -> tuple[int, int] | None:
        """A passphrase of words with spaces starting at *pos*: whole in quotes, unquoted when a
        label or a copula introduces it and it ends its clause, or an app password's four groups
        (*parts*: the words of the name before it, if any)."""
        quoted = pos > 0 and text[pos - 1] in "\"'`" and (pos < 2 or not text[pos - 2].isalnum())
        if quoted:
            phrase = _QUOTED_PHRASE.match(text, pos)
            if phrase is not None and _spaced_phrase(phrase.group("value")):
                return phrase.span("value")
        elif bracketed and pos > 1 and (text[pos] in "«“(" or text[pos - 1] in "«“(" or text[pos - 2] == "«"):
            # in typographic quotes or in parentheses: "le nouveau est « … »", "gave me (…) only"; (not
            # a qualifier in parentheses: "passphrase (first word blanked): …")
            phrase = _BRACKETED_PHRASE.match(text, pos + 1 if text[pos] in "«“(" else pos)
            if (
                phrase is not None
                and _spaced_phrase(phrase.group("value"))
                and (text[phrase.start() - 1] != "(" or len(phrase.group("value").split()) >= 4)
                and not text.startswith(":", phrase.end() + 1)
                and ": " not in phrase.group("value")  # (a note: "(ticket OPS-205: change it on first login)")
            ):
                return phrase.span("value")
        if labelled or quoted:
            after_sep = text[max(0, pos - 3) : pos].rstrip().endswith(("=", ":"))
            phrase = (_SEP_PHRASE if after_sep else _WORD_PHRASE).match(text, pos)
            if phrase is not None and _spaced_phrase(phrase.group("value")):
                return phrase.span("value")
            app = _APP_PASSWORD.match(text, pos)
            entropy = _entropy(app.group("value").replace(" ", "")) if app is not None else 0.0
            if app is not None and (
                # (not "Password: will also need some changes"; WordPress's groups are never words)
                (
                    (_CLAUSE_END.match(text, app.end("value")) or _WP_APP_VALUE.fullmatch(app.group("value")))
                    and entropy >= _APP_ENTROPY - 0.4
                )
                # an app password's name ("GMAIL_APP_PASSWORD to abcd efgh ijkl mnop in …") says what
                # the groups are wherever the sentence goes on, when they are as random as issued ones
                or (("app" in parts or "application" in parts) and entropy >= _APP_ENTROPY)
            ):
                return app.span("value")
        return None

    @staticmethod
    @functools.lru_cache(maxsize=4096)  # (a value is judged the same wherever it is seen again)
    def _accepts(value: str, kind: str, parts: tuple[str, ...], explicit: bool) -> bool:
        if parts[-1:] == ("seed",) and _BASE32.fullmatch(value) is not None:
            seed = value.replace(" ", "")  # (a one-time password's seed: base32, as authenticator apps show it)
            return any(c in "234567" for c in seed) and _entropy(seed) >= 3.0 and not _sequential(seed)
        if kind == "password" and parts[-1:] and parts[-1].endswith(("code", "codes")):
            # a recovery code has digits ("3add6-971b9", "ey7r-thxv-ceml"); a word after its name is prose
            return len(value) >= 6 and any(c.isdigit() for c in value) and not _sequential(value)
        if parts[-1:] in (("key",), ("keys",)) and len(parts) > 1 and parts[-2] in _ACCESS_KEY_SLOTS:
            return len(value) >= 32 and _looks_random(value)
        if _HEX_PAIR.fullmatch(value):
            # a key's id and its secret in hex, joined by ":" (Ghost's Admin API keys: 24 hex, 64 hex)
            return _looks_random(value.partition(":")[2])
        if parts[-1:] in (("salt",), ("salts",)) and _HEX.match(value):
            return False  # a hash's salt, stored beside it in hex (a payment gateway's "salt" is an issued string)
        if any(p in ("license", "licence", "product") for p in parts) and _PRODUCT_KEY.fullmatch(value):
            return False  # a software licence's product key (five groups of five): an install's, no credential
        if kind == "service_key":
            # a service's key in hex ("kaggle_key = <32 hex>"), as Kaggle and W&B issue them; any
            # other value of such a name may be a theme's or a query's key ("darkModeHighContrast")
            if _HEX.fullmatch(value):
                return len(value) in (32, 40, 64) and _looks_random(value)
            return len(value) >= 24 and _looks_random(value) and not _JOINED_NAME.fullmatch(value)
        if kind == "key":
            # a bare key: its longest piece must be random and not hex ("Linux-node-<sha256>"
            # is a cache key, "nodekey:<hex>" a public key, "backups/….tar.gz" an object's)
            body = max(_PIECES.split(value), key=len)
            if _B64.match(value) and "/" in value and not _HEX.match(value):
                body = value  # (base64 has "/" in it)
            if (_GROUPED.match(value) and not value.isupper()) or _HEX_GROUPS.fullmatch(value):
                # a key printed in groups ("eoso-6oxq-0s9k-xdty-48yg", as YouTube shows stream keys; hex in
                # more groups than a UUID has): the dashes are layout (licence keys are upper-case: no credential)
                body = value.replace("-", "")
                if _HEX.match(body):
                    return len(body) >= 48 and _looks_random(body)  # (longer than any id written so)
            if len(body) == 37 and _HEX.match(body):
                return _looks_random(body)  # (Cloudflare's global API key: 37 hex, no digest is so long)
            if len(body) == 32 and _UPPER_HEX.fullmatch(body):
                # (a key in upper-case hex, as Steam issues Web API keys; digests print lower)
                return _looks_random(body)
            three = len(body) >= 16 and _three_classes(body)
            return (len(body) >= 20 or three) and _looks_random(body) and not _HEX.match(body)
        if _basic_pair(value) or _looks_random(value) or _app_password(value) or _random_case_letters(value):
            return True
        if any(p in ("license", "licence", "activation", "product") for p in parts):
            return (len(value) >= 12 and _LICENSE_SHAPE.match(value) is not None and not _sequential(value)) or (
                explicit and _person_password(value)  # (a licence server's key a person set: "Pp9-So*k6@…")
            )
        if kind == "password":
            if _app_password(value):
                return True
            return len(value) >= 6 and (
                explicit or _credential_like(value) or _passphrase(value) or _human_password(value)
            )
        if _chosen_password(value):
            return True  # a secret a person chose ("SECRET_KEY = 'cobalt7ORANGE#'")
        if (
            _one_case_random(value)
            and parts[-1:] in (("secret",), ("token",), ("password",))
            and (explicit or (len(value) >= 15 and value.islower()))
        ):
            # named a secret, token or password (a vendor's "app key" of this shape is its public id);
            # after a copula only as long as an issued one ("the new Dropbox app secret is …": fifteen)
            return True
        if (
            explicit
            and not _ASSIGNMENT.match(value)
            and not _REPEAT.search(value)
            and (
                _person_password(value)
                or _human_password(value)
                or (_passphrase(value) and any(c.isdigit() for c in value))
                or _token_like(value)
                or _random_case_letters(value)
                or _mixed_token(value)
                or _short_random(value)
            )
        ):
            return True  # a shared secret a person chose, a token of letters and digits, where a separator says so
        decoded = _decoded(value)
        if decoded is not None and decoded != value and _credential_like(decoded):
            return True  # a credential in base64 ("the token in the secret is …")
        # a UUID is an id unless it is named an API key or a token (Heroku's keys are UUIDs)
        bare = parts[:-1] if parts[-1:] in (("value",), ("val",)) else parts
        return (
            _UUID.match(value) is not None
            and (
                any(p.endswith("token") for p in parts)  # ("Postmarkservertoken")
                or "apikey" in parts
                or ("api" in parts and "key" in parts)
                or "secret" in parts  # (ORCID's client secrets are UUIDs; an Entra secret's *id* is named an id)
                or "hec" in parts  # (Splunk's HEC tokens are UUIDs)
                # ("pasted Splunk HEC creds in bridge: …"; "credentials" is also said of an id: "invalid
                # credentials for tenant <uuid>")
                or bare[-1:] == ("creds",)
                # (OPERA's "app key", Fronius's "access key value")
                or (bare[-1:] == ("key",) and not _UUID_KEY_IDS.isdisjoint(bare[-2:-1]))
            )
        )

    def _tables(self, text: str, named: bool = True) -> Iterator[Finding]:
        """The cells under a table's column named a secret: a CSV export (a browser's or a
        password manager's, a cloud console's credentials file) or a Markdown table whose
        header row names the columns; and in a table of names and values ("| Variable | Value |"),
        the value of each row whose name is a secret's."""
        low = text.lower()
        if not named and not any(n in low for n in _TABLE_NEEDS):
            return
        lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", text)]
        i = 0
        while i < len(lines) - 1:
            start, end = lines[i]
            i += 1
            line = text[start:end]
            psql = i < len(lines) and "|" in line and _PSQL_RULE.match(text, *lines[i]) is not None
            sep = "|" if line.lstrip().startswith("|") or psql else max("\t,;", key=line.count)
            if (
                sep != "|"
                and line.count("|") >= 3
                and line.rstrip().endswith("|")
                and _TABLE_RULE.match(text, *lines[i])
            ):
                # a Markdown table's header after a note's lead ("* [svc] | service | key |"): its rule says so
                sep, start = "|", start + line.index("|")
                line = text[start:end]
            if line.count(sep) < (2 if sep == "|" else 1) or line.rstrip().endswith("."):
                continue
            if line.lstrip()[:7].upper() == "INSERT ":
                continue  # (an SQL INSERT's columns: `_sql_rows` reads its rows)
            header = _cells(text, start, end, sep)
            names = [text[a:b] for a, b in header]
            if not all(_HEADER_CELL.fullmatch(n) for n in names):
                continue
            columns = [(c, k) for c, k in enumerate(map(_column_kind, names)) if k]
            values = [c for c, n in enumerate(names) if _name_parts(n)[-1:] and _name_parts(n)[-1] in _VALUE_WORDS]
            # (the column of names: one named so, else the first that is not the values')
            keys = [c for c, n in enumerate(names) if c not in values and _name_parts(n)[-1:] in _KEY_COLUMNS]
            keys = keys or [c for c in range(len(names)) if c not in values][:1]
            if sep == "|" and (psql or _TABLE_RULE.match(text, *lines[i])):
                i += 1
            while i < len(lines):
                row = _cells(text, *lines[i], sep)
                if len(row) != len(header):
                    break
                i += 1  # (a table's rows are not headers, whatever their cells say)
                cells = [(c, kind, _name_parts(names[c])) for c, kind in columns]
                if values and keys:
                    name = text[slice(*row[keys[0]])]
                    kind = _name_kind(name, "") if _WORDY.match(name.strip("`")) else None
                    if kind is None and _BARE_KEY.match(name):
                        kind = "key"
                    if kind is not None and kind != "session":
                        cells.append((values[0], kind, _name_parts(name)))
                for c, kind, parts in cells:
                    a, b = row[c]
                    value = text[a:b]
                    if not value or not _usable(value):
                        continue
                    if "_" in value and _ENV_NAME.match(value) and _ENV_NAME.match(names[c]):
                        continue  # a listing of variables' names ("REDIS_PASSWORD\tUpdated …"), not a header
                    if any(ch.isspace() for ch in value):
                        if kind == "password" and _spaced_phrase(value):
                            yield Finding("password", a, b)
                        continue
                    if self._accepts(value, kind, parts, True):
                        yield Finding("password" if kind == "password" else "high_entropy", a, b)

    def _sql_rows(self, text: str) -> Iterator[Finding]:
        """The values of an SQL INSERT under columns named a secret (a users table's plain
        passwords, an api_keys table's keys)."""
        low = text.lower()
        for m in _SQL_COPY.finditer(text) if "copy" in low else ():
            names = [c.strip().strip('"') for c in m.group("cols").split(",")]
            columns = [(c, k) for c, k in enumerate(map(_column_kind, names)) if k]
            pos = m.end()
            for _ in range(200) if columns else ():
                end = _line_end(text, pos, 4000)
                if text.startswith("\\.", pos) or end <= pos:
                    break
                cells = text[pos:end].split("\t")
                if len(cells) == len(names):
                    offsets = list(itertools.accumulate((len(f) + 1 for f in cells), initial=pos))
                    for c, kind in columns:
                        value = cells[c]
                        if (
                            value != "\\N"
                            and _usable(value)
                            and self._accepts(value, kind, _name_parts(names[c]), True)
                        ):
                            yield Finding(
                                "password" if kind == "password" else "high_entropy",
                                offsets[c],
                                offsets[c] + len(value),
                            )
                pos = end + 1
        if "insert" not in low:
            return
        for m in _SQL_INSERT.finditer(text):
            names = [c.strip().strip('`"[]') for c in m.group("cols").split(",")]
            columns = [(c, k) for c, k in enumerate(map(_column_kind, names)) if k]
            if not columns:
                continue
            for row in _SQL_ROW.finditer(m.group("rows")):
                fields = list(itertools.islice(_SQL_FIELD.finditer(row.group("body")), len(names) + 1))
                if len(fields) < len(names):
                    continue
                for c, kind in columns:
                    value = fields[c].group("str")
                    if value and _usable(value) and self._accepts(value, kind, _name_parts(names[c]), True):
                        start = m.start("rows") + row.start("body") + fields[c].start("str")
                        yield Finding("password" if kind == "password" else "high_entropy", start, start + len(value))

    def _value_first(self, text: str) -> Iterator[Finding]:
        """A value and then its name: "… is the prod API key", "… <- uat access token"."""
        # (where the value starts, the value, the words after it, whether "as" names a variable)
        found: list[tuple[int, str, str, bool]] = []
        if any(n in text for n in _VALUE_FIRST_NEEDS):
            found += (
                (m.start("value"), m.group("value"), m.group("rest"), bool(m.group("as")))
                for m in _VALUE_FIRST.finditer(text)
            )
            if ("(" in text or ")" in text) and any(n in text for n in ("<-", "←", " is the ", " was the ")):
                # (a Django key: "…(ykrf*p60…) <- Django secret key")
                found += (
                    (m.start("value"), m.group("value"), m.group("rest"), False)
                    for m in _VALUE_FIRST_PARENS.finditer(text)
                )
        if "\n" in text and any(n in text for n in _REPLY_NEEDS):
            # a value that ends a chat line, named by the reply: "can you retry with …?" / "ok, using
            # that as the Algolia admin API key"
            for m in _REPLY_NAMES.finditer(text):
                last = _LINE_LAST_VALUE.search(text, _previous_line(text, m.start() + 1), m.start())
                if last is not None:
                    found.append((last.start("value"), last.group("value"), m.group("rest"), False))
        for start, value, rest, as_name in found:
            value = value.rstrip(".,;:?!")
            if (
                not _usable(value)
                or _NAMED_ID.search(text, max(0, start - 25), start)
                or _THING_BEFORE.search(text, max(0, start - 17), start)
            ):
                continue  # (an identifier named as one: "Account SID AC… — auth token lives in SSM")
            words = re.findall(r"[A-Za-z][\w-]*", rest)
            if words and words[0].lower() in _DENIALS:
                continue  # ("analysis-vm4 — no password stored here")
            # ("as DB_PASSWORD": a variable's name says it all; "come AES-256 data encryption key": prose)
            code_name = as_name and words and re.search(r"_|[a-z][A-Z]", words[0])
            words = words[: 1 if code_name else 7]
            for i, word in enumerate(words):
                kind = _name_kind(word, words[i - 1] if i else "")
                if (
                    kind is None
                    and word.lower() == "key"
                    and (words[i - 1].lower() if i else "") not in (_ID_QUALIFIER | _NOT_KEY_QUALIFIER)
                ):
                    kind = "key"  # "… <- payments provider key"
                if kind is None and _account_name(_name_parts(word)):
                    # "… — root on nas01" (unless a secret's word follows: "… ← wifi pw for …", "admin API key")
                    later = [_name_kind(w, words[j]) for j, w in enumerate(words[i + 1 :], i)]
                    kind = "account" if not any(k in ("password", "secret") for k in later) else None
                if kind is None:
                    continue
                named = (words[i - 1].lower() if i else "", *_name_parts(word))
                if kind == "account":
                    if _human_password(value):
                        yield Finding("password", start, start + len(value))
                elif (
                    self._accepts(value, kind, named, False)
                    or (kind == "password" and _pin_like(value))
                    or (kind == "secret" and _hex_key(value))  # (an API key or a client secret in hex)
                ) and (
                    kind != "password"
                    or _credential_like(value)
                    or _pin_like(value)
                    or _human_password(value)
                    or _app_password(value)
                ):
                    yield Finding("password" if kind == "password" else "high_entropy", start, start + len(value))
                break

    def _lone_values(self, text: str) -> Iterator[Finding]:
        """A value alone on its line, named by the line after it ("…\nAWS secret key for the
        backup user", "…\n\nthat's the VPN key") or by the line before it: a label ending in ":",
        a bare name ("JSESSIONID"), or a command that creates a key."""
        if "\n" not in text:
            return
        # a passphrase of words on its own line, under a label that names a password
        for m in _LONE_PHRASE.finditer(text) if ":\n" in text or "cat " in text else ():
            prev_start = _previous_line(text, m.start())
            prev = text[prev_start : max(prev_start, m.start() - 1)].strip()
            if not prev and prev_start:  # (one blank line between)
                prev = text[_previous_line(text, prev_start) : prev_start - 1].strip()
            command = _CAT_FILE.search(prev)
            if (
                (prev.endswith(":") and _line_kind(prev) == "password")
                or (
                    command is not None
                    and _SECRET_FILE.search(command.group(1))
                    and not _PUBLIC_FILE.search(command.group(1))
                )
            ) and _spaced_phrase(m.group("value")):
                yield Finding("password", m.start("value"), m.end("value"))
        # an app password alone on its line, named by the line after or before it
        for m in _LONE_APP.finditer(text):
            after = _line_end(text, m.end() + 1, 200) if m.end() < len(text) else m.end()
            before = _previous_line(text, m.start())
            if m.start() - before <= 1 and before:
                before = _previous_line(text, before)  # (one blank line between: "… app password:\n\n…")
            around = text[before:after]
            if _line_kind(around) == "password" and _entropy(m.group("value").replace(" ", "")) >= _APP_ENTROPY - 0.4:
                yield Finding("password", m.start("value"), m.end("value"))
        for m in _LONE_VALUE.finditer(text):
            value = m.group("value").rstrip(".,;")
            if (
                value.endswith(":")
                or (value.startswith("<") and value.endswith(">"))  # (markup: "<Key>Password</Key>")
                or (value.startswith("[") and value.endswith("]"))  # (a section's header: "[database]")
                or (_ASSIGNMENT.match(value) and not _labelled_password(text, m.start(), value))
                or _EMPTY_ASSIGNMENT.fullmatch(value)  # (a variable left empty: "AUTH0_CLIENT_SECRET=")
                or _PIPE_PAIR.match(value)  # (a row of a key|value listing: read by its name)
                or not _usable(value)
                or _LETTERS.match(value)
                or (_NAME_LIKE.match(value.lower()) and not _passphrase(value))
                or _in_block(text, m.start())
            ):
                continue  # (a heading, a word, a line of an armored block or of ciphertext)
            start = m.start("value")
            named = None
            after = m.end() + 1
            if text.startswith("\n", after):
                after += 1  # (one blank line between)
            if after < len(text):
                line_end = text.find("\n", after)
                named = _description(text[after : len(text) if line_end < 0 else line_end])
            if named is None and m.start() > 0:
                prev_start = text.rfind("\n", 0, m.start() - 1) + 1
                prev = text[prev_start : m.start() - 1].strip()
                if not prev and prev_start > 0:  # (one blank line between: "the password:\n\n…")
                    prev = text[text.rfind("\n", 0, prev_start - 1) + 1 : prev_start - 1].strip()
                if prev.lower().rstrip(":") in _VALUE_WORDS and prev.endswith(":") and prev_start > 0:
                    # a bare "value:" label: the line above it names the secret ("… the X client secret.\nvalue:\n…")
                    prev = text[_previous_line(text, prev_start) : prev_start - 1].strip() + " " + prev
                printed = _PRINTED_NAME.match(prev) or _PRINTED_ENV.search(prev)
                if printed is not None:
                    # a prompt that evaluated a name: the line after is what it printed
                    kind = _name_kind(printed.group("name"), "")
                    named = (kind, _name_parts(printed.group("name"))) if kind not in (None, "session") else None
                elif (
                    prev.endswith(":")
                    or _CREATES.search(prev)
                    or _BELOW.search(prev)
                    or prev.rsplit(None, 1)[-1].lower() in _COPULAS  # ("… fyrir Zoom á school-nas er\n…")
                ):
                    kind = _line_kind(prev.rstrip(":"))
                    if kind is None and _HANDOVER.search(prev):
                        # "Hi! As asked, here it is:" names nothing: the message's subject or a line
                        # above it does ("Subject: Glofox API token for the Night 10K")
                        kind = _line_kind(text[text.rfind("\n", 0, max(0, prev_start - 300)) + 1 : prev_start])
                    named = (kind, ("token",)) if kind else None
                elif _WORDY.match(prev.lstrip("_.")):
                    kind = _name_kind(prev.lstrip("_."), "")
                    if kind is None and _cookie_name(prev):
                        kind = "session"
                    named = (kind, _name_parts(prev)) if kind else None
            if named is None:
                continue
            kind, parts = named
            if kind == "account":
                ok = _human_password(value)
            elif kind == "password":
                ok = len(value) >= 6 and (
                    _credential_like(value) or _passphrase(value) or _chosen_password(value) or _human_password(value)
                )
            elif kind == "session":
                ok = _cookie_like(value)
            elif kind == "key":
                ok = self._accepts(value, "key", parts, True) or _hex_key(value) or _basic_pair(value)
                ok = ok or _passphrase(value)  # (a VPN's pre-shared key a person chose)
            else:
                ok = self._accepts(value, "secret", parts, True) or _app_password(value)
                ok = ok or (_BOOTSTRAP_TOKEN.fullmatch(value) is not None and _bootstrap_token(value))
            if ok:
                yield Finding("password" if kind == "password" else "high_entropy", start, start + len(value))

    def _keys(self, text: str) -> Iterator[Finding]:
        """Keys known by their shape and a word nearby: wallets' mnemonics and keypairs,
        recovery passwords, VPN static keys and account numbers, base64 PEM private keys."""
        low = text.lower()
        if _MNEMONIC_CUE.search(text):
            for m in _MNEMONIC.finditer(text):
                words = m.group("value").split()
                start = m.start("value")
                # (a word of the sentence may run into it: "(current box afford …)")
                lead = next((k for k in range(4) if len(words) - k in (12, 15, 18, 21, 24)), None)
                if lead is None:
                    continue
                for w in words[:lead]:
                    start = text.index(w, start) + len(w)
                start = text.index(words[lead], start)
                before = text[max(0, text.rfind("\n", 0, max(0, text.rfind("\n", 0, start))) + 1) : start]
                if not any(w in _PROSE_WORDS for w in words[lead:]) and _MNEMONIC_CUE.search(before):
                    yield Finding("crypto_key", start, m.end("value"))
        if "," in text and "[" in text:
            for m in _KEYPAIR.finditer(text):
                numbers = [int(n) for n in m.group("value").split(",")]
                if max(numbers) <= 255 and len(set(numbers)) >= 32:
                    yield Finding("crypto_key", m.start(), m.end())
        if "password" in low and "app" in low:
            # Google's app passwords (sixteen letters, shown in four groups) on a line that names one
            for m in _APP_SHAPE.finditer(text):
                value = m.group("value")
                line = text[text.rfind("\n", 0, m.start()) + 1 : _line_end(text, m.end(), 300)]
                groups = value.split()
                if (
                    _APP_CUE.search(line)
                    and not any(g in _PROSE_WORDS or g in _SMALL_WORDS for g in groups)
                    and (
                        _app_password(value)
                        or (len(groups) == 4 and _entropy(value.replace(" ", "")) >= _APP_ENTROPY - 0.4)
                    )
                ):
                    yield Finding("password", m.start("value"), m.end("value"))
        if "-" in text and (
            "recovery" in low or "bitlocker" in low or "manage-bde" in low or "numerical password" in low
        ):
            for m in _BITLOCKER.finditer(text):
                yield Finding("recovery_key", m.start("value"), m.end("value"))
        if "mullvad" in low or "vpn" in low:
            for m in _MULLVAD.finditer(text):
                if len(set(m.group("value"))) > 4:  # (not "0000 0000 …")
                    yield Finding("vpn_account", m.start("value"), m.end("value"))
        if "OpenVPN Static key" in text:
            for m in _OPENVPN_KEY.finditer(text):
                yield Finding("private_key", m.start(), m.end())
        if "LS0tLS1CRUdJTi" in text:
            for m in _B64_PRIVATE_KEY.finditer(text):
                decoded = _decoded(m.group())
                if decoded is None:
                    try:
                        decoded = base64.b64decode(m.group() + "=" * (-len(m.group()) % 4)).decode("utf-8", "replace")
                    except (binascii.Error, ValueError):
                        continue
                if "PRIVATE KEY" in decoded.split("\n", 1)[0]:
                    yield Finding("private_key", m.start(), m.end())

    def _code(self, text: str) -> Iterator[Finding]:
        """A random literal passed where an API takes its key: a client's constructor, a MAC, a
        JWT's signing call; a variable named a key set from a hex or base64 literal."""
        if "(" not in text:
            return
        for m in _KEY_CALL.finditer(text):
            args = m.group("args")
            arg, after = 0, 0  # the argument a literal is (by the commas before it)
            for i, lm in enumerate(_LITERAL.finditer(args)):
                arg += args.count(",", after, lm.start())
                after = lm.end()
                value = lm.group("value")
                if m.group("login") is not None:
                    if arg == 2 and _usable(value) and "$" not in value[:2]:
                        yield Finding(
                            "password", m.start("args") + lm.start("value"), m.start("args") + lm.end("value")
                        )
                    continue
                if m.group("connect") is not None or m.group("bind") is not None:
                    if (
                        arg == (2 if m.group("connect") else 1)
                        and len(value) >= 6
                        and _usable(value)
                        and "$" not in value[:2]
                        and (_credential_like(value) or _chosen_password(value) or _passphrase(value))
                    ):
                        yield Finding(
                            "password", m.start("args") + lm.start("value"), m.start("args") + lm.end("value")
                        )
                    continue
                # a MAC's, a JWT's or a credential's key may be a password a person chose (not
                # the first literal of a credential: its user)
                chosen = m.group("auth") is not None and (i or m.group("auth").startswith(("hmac", "jwt")))
                if len(value) < 8 or not _usable(value):
                    continue
                # (a key has no spaces: "ClickHouse password for marta: " is a prompt)
                if (_looks_random(value) and " " not in value) or (chosen and _credential_like(value)):
                    yield Finding(
                        "high_entropy", m.start("args") + lm.start("value"), m.start("args") + lm.end("value")
                    )
        for m in _BASIC_AUTH_CALL.finditer(text) if "Auth" in text else ():
            # HTTP Basic's (user, password) as a client library takes it, also inside another call
            # (`auth=BasicAuthentication('u', '…')` in `connect(…)`, requests' `HTTPBasicAuth`)
            value = m.group("value")
            if _usable(value, True) and "$" not in value[:2] and self._accepts(value, "password", (), True):
                yield Finding("password", m.start("value"), m.end("value"))
        for m in _KEY_LITERAL.finditer(text) if "key" in (low := text.lower()) or "secret" in low else ():
            if _looks_random(m.group("value")) or _hex_key(m.group("value")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))
        # a setting given by name (`os.Setenv("DB_PASSWORD", "…")`, `conf.set("fs.s3a.secret.key",
        # "…")`, `System.setProperty(…)`), a value passed to a call named a secret (`ssh.Password("…")`,
        # `.setApiKey("…")`)
        for m in _SETTER.finditer(text):
            name = m.group("name")
            kind = _name_kind(name, "") if name else _name_kind(m.group("fn"), "")
            group = "value" if name else "value2"
            value = m.group(group)
            if kind is None or kind == "session" or not _usable(value) or "$" in value[:2]:
                continue
            if name is None and (kind != "password" or len(value) < 6) and not _looks_random(value):
                continue  # (`Token("IDENT")` in a lexer)
            if self._accepts(value, kind, _name_parts(name or m.group("fn")), True):
                yield Finding("password" if kind == "password" else "high_entropy", m.start(group), m.end(group))

    def _otp(self, text: str) -> Iterator[Finding]:
        """One-time-password secrets: an `otpauth://` URI's seed, a base32 seed on a line that
        names one (as authenticator apps show it: whole, or in groups of four), and a list of
        backup or recovery codes."""
        low = text.lower()
        if "otpauth" in low:
            for m in _OTPAUTH.finditer(text):
                name = "value" if m.group("value") else "data"
                if name == "value" and _placeholder(m.group(name)):
                    continue  # a URI with its seed masked ("secret=REDACTED" is base32 letters too)
                yield Finding("otp_secret", m.start(name), m.end(name))
        if any(w in low for w in _OTP_NEEDS) and _OTP_WORD.search(text):
            for m in _BASE32.finditer(text):
                value = m.group("value")
                seed = value.replace(" ", "")
                line = text.rfind("\n", 0, m.start()) + 1
                line_end = text.find("\n", m.end(), m.end() + 120)
                if (
                    (any(c in "234567" for c in seed) or (len(seed) >= 16 and _entropy(seed) >= 3.3))
                    and any(c.isalpha() for c in seed)
                    and not _HEX.match(seed)
                    and not _sequential(seed)
                    and not _RUN.search(seed)
                    and _entropy(seed) >= 3.0
                    and (
                        _OTP_WORD.search(text, max(_previous_line(text, line), m.start() - 200), m.start())
                        or _OTP_WORD.search(text, m.end(), m.end() + 120 if line_end < 0 else line_end)
                    )
                ):
                    yield Finding("otp_secret", m.start("value"), m.end("value"))
        if "code" in low:
            for m in _CODES_INTRO.finditer(text):
                span = _code_list(text, m.end())
                if span is not None:
                    yield Finding("otp_secret", *span)
                    continue
                # one code, later on the line ("use backup code 5283-0729", "… code for X is …")
                one = _ONE_CODE.search(text, m.end(), _line_end(text, m.end(), 80))
                digits = sum(c.isdigit() for c in one.group()) if one is not None else 0
                letters = sum(c.isalpha() for c in one.group()) if one is not None else 0
                if one is not None and (
                    digits * 2 >= len(one.group())
                    or (digits >= 2 and letters >= 2)
                    or (digits and one.group().count("-") >= 2)  # (three or four groups: "ey7r-thxv-ceml")
                ):
                    yield Finding("otp_secret", one.start(), one.end())

    def _pins(self, text: str) -> Iterator[Finding]:
        """A PIN or a lock's code: digits on a line that names one, within a few words of it."""
        if not any(c.isdigit() for c in text):
            return
        for m in _PIN_DIGITS.finditer(text):
            digits = m.group().rstrip("#")
            if len(set(digits)) < 3 or _sequential(digits) or (len(digits) == 4 and digits[:2] in ("19", "20")):
                continue  # (a year, "0000", "12345678")
            if _PHONE_BEFORE.search(text, max(0, m.start() - 24), m.start()):
                continue  # the last group of a phone number ("+46 771 346 2870")
            if _GROUPED_ID_BEFORE.search(text, max(0, m.start() - 30), m.start()):
                continue  # a group of an id written in groups ("meeting ID 168 7832 3905")
            if _NUMBERED_BEFORE.search(text, max(0, m.start() - 16), m.start()):
                continue  # what the digits number ("Badge 1165 issued to Óli, PIN ending in 62")
            if _HASH_PARAMS_BEFORE.search(text, max(0, m.start() - 60), m.start()):
                continue  # a parameter of a password hash ("$argon2id$v=19$m=65536,t=3,p=4$…")
            if _DIGIT_GROUP_BEFORE.search(text, max(0, m.start() - 2), m.start()) or _DIGIT_GROUP_AFTER.match(
                text, m.end()
            ):
                continue  # a group of an account's number ("acct 8155 2001 0442 118")
            line_start = text.rfind("\n", max(0, m.start() - 120), m.start()) + 1 or max(0, m.start() - 120)
            line = text[line_start : _line_end(text, m.end(), 120)]  # (its line, 120 characters either side at most)
            if _DIAL_TAIL.match(text, m.start()) and _DIAL_IN.search(line):
                continue  # a meeting's dial-in PIN, sent with the invite to everyone on it
            near = text[max(0, m.start() - 60, line_start) : min(m.end() + 60, len(text))]
            if (
                line_start
                and _SPEAKER.fullmatch(text, line_start, m.start())
                and not text[m.end() : _line_end(text, m.end())].strip()
            ):
                # a chat reply that is only the digits, to a question about a PIN on the line before
                asked = text[_previous_line(text, line_start) : line_start]
                near = asked if "?" in asked else near
            if _PIN_WORD.search(near) or (
                (_CODE_WORD.search(near) or _LOWER_PIN.search(near)) and _LOCK_WORD.search(line)
            ):
                yield Finding("password", m.start(), m.start() + len(digits))

    def _sections(self, text: str) -> Iterator[Finding]:
        """An INI section named for a secret, whose value a key inside it holds ("[SG_SCRIPT_KEY]"
        / "Type=string" / "Label=…" / "Default=…", as Deadline's plugin settings are written)."""
        if "[" not in text or "=" not in text:
            return
        for m in _SECTION_VALUE.finditer(text):
            kind = _name_kind(m.group("name"), "")
            value = m.group("value").strip("\"'")
            if kind in (None, "account", "session") or not _usable(value):
                continue
            if self._accepts(value, kind, _name_parts(m.group("name")), True):
                start = m.start("value") + m.group("value").index(value)
                yield Finding("password" if kind == "password" else "high_entropy", start, start + len(value))

    def _vault_tables(self, text: str) -> Iterator[Finding]:
        """`vault kv get PATH` without `-field`: its "Data" table's rows are the secret's fields,
        a row named "value" being the one the path names ("secret/city/notify_api_key")."""
        for m in _VAULT_DATA.finditer(text) if "====== Data ======" in text else ():
            path = _VAULT_GET.findall(text, 0, m.start())
            named = re.split(r"[/.:]", path[-1])[-1] if path else ""
            for row in _VAULT_ROW.finditer(m.group("rows")):
                name = named if row.group("name").lower() == "value" else row.group("name")
                found = self._named_setting(name, row.group("value"), m.start("rows") + row.start("value"))
                if found is not None:
                    yield found

    def _named_setting(self, name: str, value: str, start: int) -> Finding | None:
        """*value*, given as the setting *name* (its separator says so), if it is that setting's
        secret; a service's key is judged as a secret (its form is no `KEY=` line here)."""
        kind = _setting_kind(name) if name else None
        if kind is None or kind == "session" or not _usable(value, True):
            return None
        kind = "secret" if kind == "service_key" else kind
        if not self._accepts(value, kind, _name_parts(name), True):
            return None
        return Finding("password" if kind == "password" else "high_entropy", start, start + len(value))

    def _wrapped(self, text: str) -> Iterator[Finding]:
        """Base64 of "user:token" whose token has a vendor's format (fastlane's
        MATCH_GIT_BASIC_AUTHORIZATION, a Basic header's value): the whole encoding is the secret."""
        for m in _B64_RUN.finditer(text) if len(text) >= 24 else ():
            decoded = _decoded(m.group())
            if decoded is not None and ":" in decoded and any(True for _ in self._formats(decoded)):
                yield Finding("high_entropy", m.start(), m.end())

    def _recovered(self, text: str) -> Iterator[Finding]:
        """What security tools print when they recover a credential: a cracker's plain text after
        its hash (hashcat and john `--show`), mimikatz's secrets and NT hashes, secretsdump's NT
        hashes, aircrack's and jwt_tool's found keys, pass-the-hash flags, a quoted password in
        an impacket target. (An NT hash logs in by itself; an NTLMv2 or Kerberos hash must be
        cracked first: only its plain text is a secret.)"""
        if not any(n in text for n in _RECOVERY_NEEDS):
            return
        for pattern in _RECOVERED:
            for m in pattern.finditer(text):
                value = m.group("value").rstrip()
                hex_value = _HEX.fullmatch(value) is not None
                if (
                    value
                    and _usable(value, True)
                    and not _documented(value)
                    and (not hex_value or _looks_random(value))
                ):
                    label = "high_entropy" if hex_value else "password"
                    yield Finding(label, m.start("value"), m.start("value") + len(value))

    def _outputs(self, text: str) -> Iterator[Finding]:
        """What a command printed when it prints a secret (a secret store's read, a CLI's token, a
        generator), a variable echoed into a log, a password export's row."""
        low = text.lower()
        if any(n in low for n in _COMMAND_NEEDS):
            done = -1
            for m in _SECRET_COMMAND.finditer(text):
                line_end = _line_end(text, m.end(), 600)
                if _GENERATOR.match(m.group()):
                    # "openssl rand -hex 32 gave me …": what a generator printed, quoted on its line
                    for word in _RANDOM_WORD.finditer(text, m.end(), line_end):
                        value = word.group("value").rstrip(".,;:")
                        if _usable(value) and (_hex_key(value) or (_looks_random(value) and len(value) >= 24)):
                            yield Finding("high_entropy", word.start("value"), word.start("value") + len(value))
                if line_end <= done or line_end >= len(text):
                    continue
                done = line_end
                command_start = text.rfind("\n", 0, m.start()) + 1
                command = text[command_start:line_end]
                lead = text[command_start : m.start()]
                if "$(" in lead or "`" in lead:
                    continue  # (a command substituted into a line prints nothing of its own)
                if m.group().startswith("|") and _line_kind(command) is None:
                    continue  # (`… | base64 -d` of something not named a secret)
                if "jsonpath" in command and ".data" not in command and "base64" not in command:
                    continue  # (`kubectl get secret … -o jsonpath='{.metadata.uid}'`)
                if _TRUNCATED.search(command):
                    continue  # (`… | head -c 10`: a prefix of it)
                after = line_end + 1
                warning = _CLI_WARNING.match(text, after)
                if warning is not None:
                    after = warning.end()  # (a CLI's warning printed before the value: "›   Warning: …")
                out = _LONE_VALUE.match(text, after)
                if out is None and text.startswith("\n", after):
                    out = _LONE_VALUE.match(text, after + 1)  # (one blank line between)
                if out is None:
                    phrase = _LONE_PHRASE.match(text, after)  # (a passphrase the store printed)
                    if phrase is not None and _spaced_phrase(phrase.group("value")) and _line_kind(command):
                        yield Finding("password", *phrase.span("value"))
                    continue
                value = out.group("value")
                if (
                    len(value) >= 6
                    and not value.endswith(":")  # (a label: a Makefile's target, a YAML key)
                    and _usable(value)
                    # (Heroku's tokens are UUIDs; so are others' that the secret's name calls a token or key)
                    and (not _UUID.match(value) or "auth:token" in command or _names_token(command))
                    and (self._accepts(value, "password", (), False) or _hex_key(value))
                ):
                    label = "high_entropy" if _looks_random(value) or _hex_key(value) else "password"
                    yield Finding(label, out.start("value"), out.end("value"))
        for m in _NAMED_OUTPUT.finditer(text) if "output" in text or "printenv" in text else ():
            kind = _name_kind(m.group("name"), "")
            value = m.group("value")
            if (
                kind is not None
                and kind != "session"
                and _usable(value, True)
                and self._accepts(value, kind, _name_parts(m.group("name")), True)
            ):
                yield Finding("password" if kind == "password" else "high_entropy", m.start("value"), m.end("value"))
        for m in _KEYED_VALUE.finditer(text) if '"value"' in text or "'value'" in text else ():
            kind = _name_kind(m.group("name"), "")
            value = m.group("value")
            if kind is None or kind == "session" or not _usable(value, True):
                continue
            if " " in value:
                ok = kind == "password" and (_spaced_phrase(value) or _APP_PASSWORD.fullmatch(value) is not None)
            else:
                ok = self._accepts(value, kind, _name_parts(m.group("name")), True)
            if ok:
                yield Finding("password" if kind == "password" else "high_entropy", m.start("value"), m.end("value"))
        for m in (
            _REPL_READ.finditer(text)
            if "\n" in text and (text[:1] == ">" or any(n in text for n in _REPL_NEEDS))
            else ()
        ):
            # what an interpreter printed for a secret-named variable it was asked for
            last = _LAST_NAME.search(m.group("expr"))
            name = last.group() if last is not None else ""
            kind = _name_kind(name, "") if name else None
            value = m.group("value")
            if kind is None or kind == "session" or not _usable(value, True):
                continue
            parts = _name_parts(name)
            if " " in value:
                ok = kind == "password" and (_spaced_phrase(value) or _APP_PASSWORD.fullmatch(value) is not None)
            else:
                ok = self._accepts(value, kind, parts, True)
            if ok:
                yield Finding("password" if kind == "password" else "high_entropy", m.start("value"), m.end("value"))
        for m in _ECHO_VAR.finditer(text) if "echo" in text and "\n" in text else ():
            kind = _name_kind(m.group("var"), "")
            printed, pre, post = m.group("out"), m.group("pre"), m.group("post")
            if kind is None or kind == "session" or not printed.startswith(pre) or not printed.endswith(post):
                continue
            value = printed[len(pre) : len(printed) - len(post)]
            if value and not any(c.isspace() for c in value) and _usable(value):
                if self._accepts(value, kind, _name_parts(m.group("var")), True):
                    start = m.start("out") + len(pre)
                    yield Finding("password" if kind == "password" else "high_entropy", start, start + len(value))
        for m in _LOGIN_ROW.finditer(text) if "://" in text and ("," in text or "\t" in text) else ():
            value = m.group("value")
            if (
                len(value) >= 6
                and _usable(value)
                and (
                    _looks_random(value)
                    or _chosen_password(value)
                    or _passphrase(value)
                    or _credential_like(value)
                    or _human_password(value)
                )
            ):
                yield Finding("password", m.start("value"), m.end("value"))

    def _paragraphs(self, text: str) -> Iterator[Finding]:
        """A random token in the lines under a heading or a subject that names a secret ("Remove
        hardcoded mail API key" / "Oops, … was in settings/base.py"): a commit message, a mail."""
        if "\n" not in text:
            return
        for m in _RANDOM_WORD.finditer(text):
            value = m.group("value").rstrip(".,;:!?)")
            if (
                len(value) < 24
                or _HEX.match(value)
                or not _looks_random(value)
                or not any(c.isupper() for c in value)
                or not any(c.isdigit() for c in value)
                or not _usable(value)
                or _ID_BEFORE.search(text, max(0, m.start() - 30), m.start())
                or _ASSIGNMENT.match(value)
                or _DIGEST_PREFIX.match(value)
                or _OBJECT_ID.match(value)
                or text[max(0, m.start() - 2) : m.start()] in ('="', "='")  # (markup's attribute)
            ):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            if line_start == 0:
                continue
            line = text[line_start : _line_end(text, m.end(), 400)]
            if len(_PROSE_WORD.findall(line)) < 4 or "public" in line.lower():
                continue  # (a token in a sentence, not a line of a block or a table)
            # (the nearest line above that is not blank, within three, names the secret in its first
            # words: "Remove hardcoded mail API key", not "Token refresh failure")
            pos = line_start
            for _ in range(3):
                prev = _previous_line(text, pos)
                line = text[prev : pos - 1].strip()
                pos = prev
                if line:
                    named = _description(line)
                    if named is not None and named[0] not in ("password", "account", "session"):
                        yield Finding("high_entropy", m.start("value"), m.start("value") + len(value))
                    break
                if pos == 0:
                    break

    def _answers(self, text: str) -> Iterator[Finding]:
        """The answer to a question about a password or a login, on the lines after it, whoever
        gives it: a chat ("Ivana: sec" / "Ivana: …"), a quoted mail, a forum's Q&A."""
        if "?" not in text or "\n" not in text:
            return
        for m in _QUESTION.finditer(text) if "?" in text else ():
            line = m.group()
            kind = _line_kind(line)
            if not (kind is not None or _LOGIN_WORDS.search(line)) or _POLICY_WORDS.search(line):
                continue  # (nor is a question about its rule or its label: "what's the passphrase rule?")
            for span in _answer(text, m.end()):
                value = text[span[0] : span[1]]
                if len(value) < 6 or not _usable(value):
                    continue
                if kind in (None, "password") and (
                    _credential_like(value)
                    or _passphrase(value)
                    or (kind == "password" and _spaced_phrase(value))
                    or _chosen_password(value)
                    or (kind == "password" and _app_password(value))
                ):
                    yield Finding("password", *span)
                    break
                if kind not in (None, "password") and (
                    _looks_random(value) or _hex_key(value) or (_UUID.match(value) and _API_KEY_WORDS.search(line))
                ):
                    yield Finding("high_entropy", *span)  # "what do I set NEXTAUTH_SECRET to?" / "…: X"
                    break

    def _replies(self, text: str) -> Iterator[Finding]:
        """A chat line asking for a secret, then a reply that is only a value: "[12:01] a: what's
        the VPN pw?" / "[12:02] b: …"."""
        if "\n" not in text or (": " not in text and "> " not in text):
            return
        for m in _CHAT_REPLY.finditer(text):
            line_start = text.rfind("\n", max(0, m.start() - 200), m.start()) + 1
            kind = _line_kind(text[line_start : m.start()])
            if kind is None and line_start > 0 and _ACK_LINE.fullmatch(text, line_start, m.start()):
                # the answer after an acknowledgement ("a: anyone have the X secret?" / "b: yep" / "b: …")
                line_start = text.rfind("\n", max(0, line_start - 201), line_start - 1) + 1
                kind = _line_kind(text[line_start : m.start()])
            value = m.group("value").rstrip(".,;:!?")
            speaker = m.group("speaker") or m.group("nick")
            if kind is None or not _usable(value) or _name_parts(speaker)[-1:] in (("id",), ("ids",)):
                continue  # (an id's field is no speaker: "…token … is invalid.\nRequestId: 373d…")
            setting = _SETTING_LINE.match(text, line_start, m.start())
            if (
                setting is not None
                and _name_kind(setting.group(1), "") is not None
                and not text[line_start : m.start()].rstrip().endswith("?")
            ):
                continue  # a config line that gives its name a value asks nothing ("redis_password: ${…}\nregion: …")
            if kind == "password":
                ok = _credential_like(value) and len(value) >= 8
            else:
                ok = _looks_random(value) or self._accepts(value, kind, ("token",), True)
            if ok:
                yield Finding(
                    "password" if kind == "password" else "high_entropy",
                    m.start("value"),
                    m.start("value") + len(value),
                )
        for m in _CHAT_PHRASE.finditer(text):
            line_start = text.rfind("\n", max(0, m.start() - 200), m.start()) + 1
            value = m.group("value")
            if (
                "?" in text[line_start : m.start()]
                and _line_kind(text[line_start : m.start()]) == "password"
                and (_app_password(value) or _spaced_phrase(value))
            ):
                yield Finding("password", m.start("value"), m.end("value"))  # ("… the vault password?" / "b: w w w w")
        # a line that ends in a labelled value, after a line that names a password ("Client: I lost my
        # password" / "Support: here is the new one: …")
        for m in _TAIL_LINE.finditer(text):
            prev_start = _previous_line(text, m.start())
            value = m.group("value").rstrip(".,;:!?")
            if (
                prev_start < m.start()
                and _line_kind(text[prev_start : m.start()]) == "password"
                and len(value) >= 8
                and _usable(value)
                and (_human_password(value) or _passphrase(value) or _chosen_password(value))
            ):
                yield Finding("password", m.start("value"), m.start("value") + len(value))
        # a reply giving a user and a password to a question about logging in or a password
        for m in _CHAT_PAIR.finditer(text):
            line_start = text.rfind("\n", max(0, m.start() - 200), m.start()) + 1
            line = text[line_start : m.start()]
            value = m.group("value").rstrip(".,;:!?")
            if (
                (_LOGIN_WORDS.search(line) or _line_kind(line) == "password")
                and _usable(value)
                and _credential_like(value)
                and len(value) >= 8
            ):
                yield Finding("password", m.start("value"), m.start("value") + len(value))


def _name_values(text: str) -> Iterator[tuple[re.Match[str], re.Match[str]]]:
    """Each name field and the value field after it in the same object (within four lines, before
    the object closes or another item or name starts)."""
    for m in _NAME_FIELD.finditer(text):
        limit = min(len(text), m.end() + 300)
        newlines = 0
        for _ in range(4):
            newlines = text.find("\n", newlines + 1 if newlines else m.end(), limit)
            if newlines < 0:
                break
        if newlines > 0:
            limit = newlines
        end = _FIELDS_END.search(text, m.end(), limit)
        v = _VALUE_FIELD_AFTER.search(text, m.end(), end.start() if end else limit)
        if v is not None:
            yield m, v


def _cells(text: str, start: int, end: int, sep: str) -> list[tuple[int, int]]:
    """The cells of the table row at *start*:*end*, split at *sep* outside double quotes, as spans
    without their quotes and blanks (a Markdown row's outer bars make no cells)."""
    spans: list[tuple[int, int]] = []
    pos, quoted, cell = start, False, start
    while pos <= end:
        c = text[pos] if pos < end else sep
        if c == '"':
            quoted = not quoted
        elif c == sep and (not quoted or pos == end):
            a, b = cell, pos
            while a < b and text[a] in " \t":
                a += 1
            while b > a and text[b - 1] in " \t":
                b -= 1
            if b - a >= 2 and text[a] in "\"'`" and text[b - 1] == text[a]:
                a, b = a + 1, b - 1
            spans.append((a, b))
            cell = pos + 1
        pos += 1
    if sep == "|" and spans and spans[0][0] == spans[0][1]:
        spans.pop(0)
    if sep == "|" and spans and spans[-1][0] == spans[-1][1]:
        spans.pop()
    return spans


def _column_kind(name: str) -> str | None:
    """The kind of secret a table column named *name* holds ("Password", "Secret access key")."""
    name = name.split(" for ", 1)[0]  # ("Twilio auth token for the SMS account")
    if len(name.split()) > 6:
        return None  # (a clause of prose, not a column's name)
    kind = _name_kind(name, "")
    if kind is None and _name_parts(name)[-1:] == ("seed",) and _OTP_WORD.search(name):
        return "secret"  # a one-time password's seed ("2FA seed", "TOTP seed")
    if kind is None and _name_parts(name)[-1:] and _name_parts(name)[-1] in _SECRET_COLUMNS:
        return "password"
    return None if kind == "session" else kind


def _answer(text: str, pos: int) -> Iterator[tuple[int, int]]:
    """Where the answer to the question line ending at *pos* is: the first word of the next lines
    that say more than a filler ("sec", "one moment"), past a speaker's name or a quote mark; the
    line after it too (a user's name first, then the password)."""
    given = 0
    for m in itertools.islice(_ANSWER_LINE.finditer(text, pos), 5):
        said = m.group("said")
        if (
            _FILLER.fullmatch(said)
            or _SPEAKER_LINE.fullmatch(said)
            or said.endswith(":")
            or (said.endswith("?") and " " in said.strip())
        ):
            continue  # (a filler, a speaker's header, another question: "Winter2020?" is an answer)
        value = _QUOTED_ANSWER.match(said) or _ANSWER_VALUE.match(said) or _TAIL_VALUE.search(said)
        if value is None:
            return
        start = m.start("said") + value.start("value")
        yield start, start + len(value.group("value").rstrip(".,;!"))
        given += 1
        if given == 2:
            return  # (a user, then the password: two answers at most)


def _code_list(text: str, pos: int) -> tuple[int, int] | None:
    """Where a list of backup codes starts and ends after *pos* (past a label up to its colon):
    three or more codes of one shape ("0916 2338", "4qw5o-h5nbk"), mostly with digits in them."""
    line_end = text.find("\n", pos)
    colon = text.find(":", pos, pos + 100)
    if colon >= 0 and (line_end < 0 or colon < line_end):
        pos = colon + 1
    codes: list[tuple[int, int]] = []
    shape: tuple[int, ...] = ()
    digits = 0
    while len(codes) < 40:
        m = _CODE_ITEM.match(text, pos)
        if m is None:
            break
        code = m.group("code")
        form = tuple(len(p) for p in code.split("-"))
        if _CODE.fullmatch(code) is None or (shape and form != shape):
            break
        shape = form
        digits += any(c.isdigit() for c in code)
        codes.append(m.span("code"))
        pos = m.end()
    if len(codes) < 3 or digits * 2 < len(codes) or len({text[a:b] for a, b in codes}) < len(codes):
        return None
    return codes[0][0], codes[-1][1]


def _description(line: str) -> tuple[str, tuple[str, ...]] | None:
    """The kind of secret, and its name's parts, that *line* says the value before it is, when
    it names one in its first words ("AWS secret key for …", "that's the VPN key; …"); a key
    with any qualifier counts ("VPN key"), not a hash's or an id's ("md5 of the secrets file")."""
    m = _DESCRIPTION_START.match(line)
    words = re.findall(r"[A-Za-z][\w-]*", line[m.end() if m else 0 :])[:6]
    account: tuple[str, tuple[str, ...]] | None = None
    for i, word in enumerate(words):
        low = word.lower()
        if low in _NOT_SECRET_WORDS or low in _ID_WORDS or low in ("of", "in", "from"):
            return None  # "sha256 of the secrets file", "… in the vault"
        prev = words[i - 1].lower() if i else ""
        kind = _name_kind(word, prev)
        if kind is None and low in ("key", "keys") and prev not in _ID_QUALIFIER | _NOT_KEY_QUALIFIER:
            kind = "key"
        if kind is None and low in ("pw", "pwd"):
            kind = "password"
        if kind is None and account is None and _account_name(_name_parts(word)):
            account = ("account", (prev, *_name_parts(word)))  # "(svc_backup, domain CORP — …)", "root on nas01"
        if kind is None:
            continue
        following = words[i + 1].lower() if i + 1 < len(words) else ""
        if following in _NAME_MODIFIES:
            return None  # "token refresh failed"
        return kind, (prev, *_name_parts(word))
    return account  # (an account's word, unless a secret's follows: "The new Wi-Fi password")


_ARMOR_HEADER = re.compile(r"(?:Version|Comment|Hash|Charset|MessageID|Proc-Type|DEK-Info):")
_BLOCK_LINE = re.compile(r"[ \t]*(?:[A-Za-z0-9+/=]{16,}|-----BEGIN [^\n]*|\$ANSIBLE_VAULT[^\n]*)[ \t]*$")


def _in_block(text: str, line_start: int) -> bool:
    """The line at *line_start* follows a line of base64 or hex, or an armor's BEGIN: it is part
    of a block (a certificate, ciphertext), not a value of its own."""
    if line_start == 0:
        return False
    prev = text.rfind("\n", 0, line_start - 1) + 1
    if _BLOCK_LINE.match(text[prev : line_start - 1]) is not None:
        return True
    # an armor's headers end with a blank line before its body ("-----BEGIN PGP …\n\nmQGN…")
    for _ in range(8):
        line = text[prev : line_start - 1]
        if not prev or (line.strip() and not _ARMOR_HEADER.match(line)):
            return False
        line_start, prev = prev, text.rfind("\n", 0, prev - 1) + 1
        if text.startswith("-----BEGIN ", prev):
            return True
    return False


_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]+")
_DEFAULT = re.compile(r"(?i)\bdefault\b")
#: A comment after a value that says it is an example ("hunter2  # example from the docs").
_EXAMPLE_COMMENT = re.compile(
    r"(?i)[^\n]{0,40}?(?:#|//|--|;)[ \t]*(?:an?[ \t]+|the[ \t]+)?(?:example|sample|placeholder|dummy|fake|default|test[ \t]+value)\b"
)
_SECRET_REF = re.compile(
    r"^projects/[^/\s]{1,100}/secrets/[^/\s]{1,255}"
    # a secret store's reference: "secretref:db-password", "keyvault:…", "vault:secret/data/db#password"
    r"|^(?i:secretref|secretkeyref|keyvault|akv|azkv|secretsmanager|awssm|gcpsm|ssm|vault|sm|doppler|infisical|bws|sops"
    r"|kms|secret|secrets|env|file)(?::|://)"
    r"|^(?i:resolve):"
    # Azure App Service's Key Vault reference ("@Microsoft.KeyVault(VaultName=…;SecretName=…)")
    r"|^@Microsoft\.(?:KeyVault|AppConfiguration)\("
)


def _cjk_trimmed(value: str) -> tuple[int, str]:
    """*value* without the Chinese, Japanese or Korean words around it (a particle or a verb
    written without spaces: "は1Passwordの…"), and how many characters went from its start."""
    if not _CJK.search(value):
        return 0, value
    lead = _CJK.match(value)
    start = lead.end() if lead else 0
    end = _CJK.search(value, start)
    return start, value[start : end.start() if end else len(value)]


def _starts_line(text: str, pos: int) -> bool:
    """Only blanks or a list's bullet come before *pos* on its line (looking 40 characters back)."""
    line_start = text.rfind("\n", max(0, pos - 40), pos) + 1
    return bool(line_start or pos <= 40) and not text[line_start:pos].strip(" \t-*")


def _previous_line(text: str, line_start: int) -> int:
    """Where the line before the one starting at *line_start* starts (the line itself, if first)."""
    return text.rfind("\n", 0, max(0, line_start - 1)) + 1 if line_start else 0


def _line_end(text: str, pos: int, limit: int = 200) -> int:
    """Where the line at *pos* ends, looking no further than *limit* characters."""
    end = text.find("\n", pos, pos + limit)
    return min(len(text), pos + limit) if end < 0 else end


def _cookie_name(name: str) -> bool:
    """*name* is a session cookie's: Express's `connect.sid`, `…_session`, `__Secure-…` and
    `__Host-…` cookies, ASP.NET's `.AspNetCore.Cookies`."""
    parts = _name_parts(name)
    return (
        bool(parts)
        and (
            parts[-1] in ("sid", "session", "sess", "cookies", "token")
            # (one word: Django's `sessionid`, PHP's `PHPSESSID`, Java servlets' `JSESSIONID`)
            or parts[-1] in ("sessionid", "phpsessid", "jsessionid")
            or parts[-2:] in (("session", "id"), ("sess", "id"))
            or name.startswith(("__Secure-", "__Host-"))
        )
    )


def _hex_key(value: str) -> bool:
    """*value* is a random hex string long enough for a key (128 bits or more)."""
    value = value.removeprefix("0x")
    return len(value) >= 32 and _HEX.match(value) is not None and _entropy(value) >= 3.0


#: A base64 or token-shaped run of 16 or more characters with digits and both cases.
_MIXED_BLOB = re.compile(r"(?<!\S)(?=\S*\d)(?=\S*[a-z])(?=\S*[A-Z])[A-Za-z0-9+/=_-]{16,}(?!\S)")


def _line_kind(line: str) -> str | None:
    """The kind of the strongest secret named in *line* ("password", "secret"), else None; a bare
    "key" counts as a secret here: the reply must look random."""
    line = _MIXED_BLOB.sub(" ", line)  # (no name inside a value: "Content-MD5: …A/Pw==" asks for no "pw")
    words = re.findall(r"[A-Za-z][\w.-]{0,60}", line)[:40]
    if any(_foreign(m.group()) == "password" for m in _NAME_HINT.finditer(line)):
        return "password"
    found = None
    for i, word in enumerate(words):
        if _blob(word):
            continue
        kind = _name_kind(word, words[i - 1] if i else "")
        if kind == "session" and _name_parts(word)[-1:] in (("salt",), ("salts",)):
            kind = "secret"  # (a site's salt: the reply must look random)
        elif kind == "session":
            continue  # ("context for next session:" is no question about a session)
        if kind is None and (word.lower() in ("key", "keys", "pw", "pwd") or _foreign(word) == "key"):
            kind = "password" if word.lower() in ("pw", "pwd") else "secret"
        if kind == "password":
            return kind
        found = found or kind
    return found


def redact(text: str, findings: list[Finding]) -> str:
    """*text* with each finding replaced by ``[redacted:KIND]``."""
    out = []
    at = 0
    for f in sorted(findings, key=lambda f: f.start):
        out.append(text[at : f.start])
        out.append(f"[redacted:{f.kind}]")
        at = f.end
    out.append(text[at:])
    return "".join(out)
