"""What a run records of the endpoint it called: its `--base-url` with every credential in it replaced.

One home for the rule, used by `extract`, `bench` and `agent run` alike, so that no run folder, project or
`--json` document ever holds a key that was written into the address.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

# What a recorded base URL shows in place of a credential it held.
KEY_MARK = "[key]"

# Query parameters whose values are credentials, by a word in their name (api_key, token, sig, ...).
_SECRET_PARAMETER = re.compile(r"key|token|secret|pass|auth|sig|credential", re.IGNORECASE)


def recorded_base_url(url: str | None, key: str | None) -> str | None:
    """--base-url as a run records it: no credential in it is written (the API key anywhere, the user and
    password before the host, a query parameter named like a key, token or secret); escapes are kept."""
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.username or parts.password:
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{KEY_MARK}@{host}")
    if parts.query:  # each parameter as written, its escapes kept, but a credential's value replaced
        fields = [(field.split("=", 1)[0], field) for field in parts.query.split("&")]
        parts = parts._replace(query="&".join(f"{name}={KEY_MARK}" if _SECRET_PARAMETER.search(name) else field
                                              for name, field in fields))
    recorded = urlunsplit(parts)
    return recorded.replace(key, KEY_MARK) if key else recorded
