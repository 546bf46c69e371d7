"""An endpoint saved without its credential (the app's settings file keeps none) is still an address that can
be read when the file is read again: a user and password before the host are saved as the escaped mark, never
as `[key]@host`, which urlsplit refuses (it reads the brackets as an IPv6 host). Runs record as they always did."""

from __future__ import annotations

from recordlens.core.llm import endpoint_problem, holds_key_mark, without_credential
from recordlens.core.llm.endpoint import recorded_base_url


def test_a_user_and_password_are_saved_as_a_mark_that_parses() -> None:
    saved = without_credential("http://user:secret@127.0.0.1:8080/v1")
    assert saved == "http://%5Bkey%5D@127.0.0.1:8080/v1" and "secret" not in saved
    assert endpoint_problem(saved) is None and holds_key_mark(saved)
    assert without_credential(saved) == saved  # saved again, unchanged


def test_the_bracketed_mark_a_previous_version_saved_is_saved_escaped() -> None:
    assert endpoint_problem("http://[key]@127.0.0.1:8080/") is not None  # what made OK refuse every change
    assert without_credential("http://[key]@127.0.0.1:8080/") == "http://%5Bkey%5D@127.0.0.1:8080/"


def test_a_key_in_the_query_and_an_address_without_credential_are_saved_as_before() -> None:
    assert without_credential("http://127.0.0.1:9/?key=abc") == "http://127.0.0.1:9/?key=[key]"
    assert without_credential("http://127.0.0.1:9/") == "http://127.0.0.1:9/"
    assert holds_key_mark("http://127.0.0.1:9/?key=[key]") and not holds_key_mark("http://127.0.0.1:9/")


def test_a_run_records_a_user_and_password_as_it_always_did() -> None:
    # compared with the --base-url a resume gives again: an earlier run's record must still match
    assert recorded_base_url("http://user:secret@127.0.0.1:8080/", None) == "http://[key]@127.0.0.1:8080/"
