"""What a run records of the endpoint it called: its `--base-url` with every credential in it replaced.

One home for the rule, used by `extract`, `bench` and `agent run` alike, so that no run folder, project or
`--json` document ever holds a key that was written into the address.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote, urlsplit, urlunsplit

# What a recorded base URL shows in place of a credential it held.
KEY_MARK = "[key]"
# The mark in place of a user and password before the host, in an address that is read again (the app's settings
# file): KEY_MARK escaped, since brackets there read as an IPv6 host and the address could not be parsed at all.
USERINFO_MARK = quote(KEY_MARK, safe="")  # %5Bkey%5D

# Query parameters whose values are credentials, by a word in their name (api_key, token, sig, ...).
_SECRET_PARAMETER = re.compile(r"key|token|secret|pass|auth|sig|credential", re.IGNORECASE)


def recorded_base_url(url: str | None, key: str | None, *, userinfo_mark: str = KEY_MARK) -> str | None:
    """--base-url as a run records it: no credential in it is written (the API key anywhere, the user and
    password before the host, a query parameter named like a key, token or secret); escapes are kept.
    A run's record is only shown and compared (a resume gives the same --base-url), never parsed, so the user
    and password are `KEY_MARK` there, as runs have always recorded them; `userinfo_mark` is for a form that is
    read again as an address (`without_credential`)."""
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.username or parts.password:
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{userinfo_mark}@{host}")
    if parts.query:  # each parameter as written, its escapes kept, but a credential's value replaced
        fields = [(field.split("=", 1)[0], field) for field in parts.query.split("&")]
        parts = parts._replace(query="&".join(f"{name}={KEY_MARK}" if _SECRET_PARAMETER.search(name) else field
                                              for name, field in fields))
    recorded = urlunsplit(parts)
    return recorded.replace(key, KEY_MARK) if key else recorded


def holds_credential(url: str | None) -> bool:
    """Whether an address holds a credential that `recorded_base_url` replaces (a user and password before the
    host, a query parameter named like a key, token or secret); the API key itself is not looked for here."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:  # brackets that are no IPv6 host: no address, and nothing read as a credential in it
        return False
    names = [field.split("=", 1)[0] for field in parts.query.split("&")] if parts.query else []
    return bool(parts.username or parts.password or any(_SECRET_PARAMETER.search(name) for name in names))


def without_credential(url: str) -> str:
    """`url` as a file that keeps no secret may hold it: each credential in it replaced by `KEY_MARK` (a user and
    password before the host by `USERINFO_MARK`, so that the address still parses when the file is read again),
    anything else as written (an address without one is returned unchanged, not rewritten)."""
    if holds_credential(url):
        return recorded_base_url(url, None, userinfo_mark=USERINFO_MARK) or url
    # the bracketed mark before the host, as the previous version saved it, cannot be parsed: escaped from now on
    return url.replace(f"//{KEY_MARK}@", f"//{USERINFO_MARK}@", 1)


def holds_key_mark(url: str) -> bool:
    """Whether an address holds the mark of a credential left out of it (`KEY_MARK`, as written or escaped):
    every call through it would be refused until the credential is given again in its place."""
    return KEY_MARK in unquote(url)


def endpoint_identity(url: str | None) -> str | None:
    """A recorded --base-url as the endpoint it names, for telling one run's endpoint from another's: one slash
    ending its path left out, as the client leaves it out when it asks the endpoint (`http://host:8080/` and
    `http://host:8080` are asked alike). Anything else stays as written: `localhost` and `127.0.0.1` may be two
    servers (a name can resolve elsewhere), and a run's answers must be one endpoint's."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:  # no address to read: compared as written
        return url
    if not parts.path.endswith("/"):
        return url
    return urlunsplit(parts._replace(path=parts.path[:-1]))
