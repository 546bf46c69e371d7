"""Settings and the Gemini key: the keyring when it works (a test double here), else the session; never a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator import settings as settings_module
from recordlens.annotator.settings import (
    KeyringKeyStore,
    SessionKeyStore,
    Settings,
    extractor_params,
    gemini_key,
    offline_default_method,
    proposal_method,
)

SECRET = "AIza-test-secret-0123456789"


class FakeKeyring:
    """The `keyring` module's three calls, in memory; `broken` makes every call fail like a locked keyring."""

    def __init__(self, broken: bool = False) -> None:
        self.passwords: dict[tuple[str, str], str] = {}
        self.broken = broken

    def _check(self) -> None:
        if self.broken:
            raise RuntimeError("keyring locked")

    def get_password(self, service: str, user: str) -> str | None:
        self._check()
        return self.passwords.get((service, user))

    def set_password(self, service: str, user: str, password: str) -> None:
        self._check()
        self.passwords[(service, user)] = password

    def delete_password(self, service: str, user: str) -> None:
        self._check()
        del self.passwords[(service, user)]


@pytest.fixture(autouse=True)
def no_key_in_environment(monkeypatch):
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_the_key_goes_to_the_keyring_and_never_into_the_settings_file(tmp_path: Path) -> None:
    ring = FakeKeyring()
    store = KeyringKeyStore(ring)
    store.set(SECRET)
    assert KeyringKeyStore(ring).get() == SECRET  # a later session finds it
    path = tmp_path / "annotator.json"
    Settings(model="gemini-x", default_extractor="gemini").save(path)
    assert SECRET not in path.read_text(encoding="utf-8")
    assert Settings.load(path).model == "gemini-x"
    store.set(None)
    assert ring.passwords == {} and store.get() is None


def test_a_failing_keyring_keeps_the_key_for_the_session(caplog) -> None:
    store = KeyringKeyStore(FakeKeyring(broken=True))
    store.set(SECRET)
    assert store.get() == SECRET
    assert SECRET not in caplog.text


def test_without_keyring_the_key_lives_for_the_session_only(monkeypatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_keyring(name, *args, **kwargs):
        if name == "keyring" or name.startswith("keyring."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_keyring)
    store = settings_module.default_key_store()
    assert isinstance(store, SessionKeyStore) and not store.persistent
    store.set(SECRET)
    assert gemini_key(store) == SECRET


def test_propose_uses_gemini_only_with_a_key(monkeypatch) -> None:
    chosen = Settings(default_extractor="gemini", gemini_format="outline", model="m")
    assert proposal_method(chosen, has_key=True) == "gemini"
    assert proposal_method(chosen, has_key=False) == offline_default_method()
    assert proposal_method(Settings(), has_key=True) == offline_default_method() == "selector"
    assert proposal_method(Settings(default_extractor="mdr"), has_key=False) == "mdr"
    assert extractor_params("gemini", chosen, SECRET) == {"input_format": "outline", "model": "m", "api_key": SECRET}
    assert extractor_params("mdr", chosen, SECRET) == {}
    monkeypatch.setenv("GEMINI_API_KEY", "from-env")
    assert gemini_key(SessionKeyStore()) == "from-env"


def test_unreadable_settings_fall_back_to_defaults(tmp_path: Path) -> None:
    path = tmp_path / "annotator.json"
    path.write_text("{not json", encoding="utf-8")
    assert Settings.load(path) == Settings()
    path.write_text('{"model": "m", "unknown": 1, "api_key": "x"}', encoding="utf-8")
    assert Settings.load(path) == Settings(model="m")
    assert Settings(annotator="  ").person and Settings(annotator="ana").person == "ana"


def test_the_selection_at_quit_is_kept_per_project_and_a_damaged_value_means_none(tmp_path: Path) -> None:
    settings = Settings()
    settings.remember_selection("/p", "7", [3, 5])
    settings.remember_selection("/q", "1", [])
    path = tmp_path / "annotator.json"
    settings.save(path)
    loaded = Settings.load(path)
    assert loaded.last_selection("/p", "7") == [3, 5]
    assert loaded.last_selection("/p", "8") == []  # left on another page
    assert loaded.last_selection("/r", "7") == []
    for damaged in ("{no", "[1]", '{"/p": [3]}', '{"/p": {"page": "7", "records": "3"}}'):
        assert Settings(last_selections=damaged).last_selection("/p", "7") == []
    mixed = '{"/p": {"page": "7", "records": [3, "4", true, 5.0, 6]}}'
    assert Settings(last_selections=mixed).last_selection("/p", "7") == [3, 6]
    assert not list(tmp_path.glob(".annotator.json.*"))  # written in one piece, no temporary left
    # A settings file kept elsewhere behind a link stays a link: the file it points to is rewritten.
    real = tmp_path / "dotfiles" / "annotator.json"
    real.parent.mkdir()
    real.write_text("{}", encoding="utf-8")
    link = tmp_path / "linked.json"
    link.symlink_to(real)
    loaded.save(link)
    assert link.is_symlink() and Settings.load(real).last_selection("/p", "7") == [3, 5]


def test_the_settings_dialog_stores_the_key_in_the_key_store(qapp, tmp_path: Path) -> None:
    from recordlens.annotator.settings_dialog import SettingsDialog, proposer_names

    assert "replay" not in proposer_names() and "mdr" in proposer_names()
    store = SessionKeyStore()
    chosen = Settings()
    dialog = SettingsDialog(chosen, store)
    dialog.key.setText(SECRET)
    dialog.extractor.setCurrentIndex(dialog.extractor.findData("gemini"))
    dialog.model.setText("gemini-2.5-flash")
    dialog.apply()
    assert store.get() == SECRET
    assert (chosen.default_extractor, chosen.model) == ("gemini", "gemini-2.5-flash")
    chosen.save(tmp_path / "s.json")
    assert SECRET not in (tmp_path / "s.json").read_text(encoding="utf-8")
    dialog.deleteLater()


def test_ok_on_an_endpoint_that_is_no_http_address_keeps_the_dialog_open_and_says_why(qapp) -> None:
    from recordlens.annotator.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(), SessionKeyStore())
    dialog.endpoint.setText("127.0.0.1:8080")
    dialog._accept_if_valid()
    assert dialog.result() == 0 and not dialog.problem.isHidden()
    assert "is not an http:// or https:// address" in dialog.problem.text()
    dialog.endpoint.setText("http://127.0.0.1:8080")
    dialog._accept_if_valid()
    assert dialog.result() == 1
    dialog.deleteLater()


def test_a_later_versions_settings_are_kept_when_this_one_saves(tmp_path: Path) -> None:
    """An older app that saves the settings file kept only the keys it knew: one run of it erased what a later
    version had kept there (the panels' widths, say). A secret is never kept, whoever wrote it."""
    path = tmp_path / "annotator.json"
    path.write_text(json.dumps({"model": "m", "a_later_setting": {"x": [1, 2]}, "api_key": "x", "token": "t"}),
                    encoding="utf-8")
    settings = Settings.load(path)
    settings.annotator = "ana"
    settings.save(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["a_later_setting"] == {"x": [1, 2]} and saved["annotator"] == "ana" and saved["model"] == "m"
    assert "api_key" not in saved and "token" not in saved
