"""The words about a page's Gemini calls name a setting where whoever made the calls sets it (`SettingPlaces`): the
command line's options by default (--model, --timeout-s), what the app passes from Propose (its Settings, its fixed
time limit), which has no such option: an answer cut at the output limit, an answer given up at the time limit, a
model the endpoint does not know. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
import re

import pytest

from recordlens.core import extract
from recordlens.core.extract.base import ExtractionFailedError
from recordlens.core.extract.gemini import GeminiExtractor
from recordlens.core.llm.gemini import GeminiError
from recordlens.core.page.dom import parse_html
from tests.fake_gemini import FakeGemini, answer, refused, status, trickle

KEY = "test-key-not-real-setting-places"
PAGE = parse_html("<main><ul><li><b>Camera</b> $399</li><li><b>Lens</b> $129</li></ul></main>")
RECORDS = [["/body[1]/main[1]/ul[1]/li[1]"], ["/body[1]/main[1]/ul[1]/li[2]"]]
# As the app passes them (annotator/labelling/propose.py): its settings, and the time limit it fixes
APP = extract.SettingPlaces(model="the Gemini model in Settings", timeout_s="the app's time limit for an answer",
                            endpoint="the Gemini endpoint in Settings")
AN_OPTION = re.compile(r"--[a-z]")


def extractor(server: FakeGemini, places: extract.SettingPlaces | None, **settings: object) -> GeminiExtractor:
    chosen = {"api_key": KEY, "base_url": server.url, "timeout_s": 30.0, "max_attempts": 2, "backoff_s": 0.01,
              "notify": lambda message: None, **settings}
    return extract.create("gemini", setting_places=places, **chosen)  # type: ignore[return-value]


@pytest.mark.parametrize(("places", "named"), [(None, "(--model)"), (APP, "(the Gemini model in Settings)")])
def test_an_answer_cut_at_the_output_limit_names_where_the_model_is_set(
        places: extract.SettingPlaces | None, named: str) -> None:
    with FakeGemini([refused("MAX_TOKENS", '[["/body[1]')]) as server, \
            pytest.raises(ExtractionFailedError) as caught:
        extractor(server, places).extract(PAGE)
    reason = caught.value.reason
    assert reason.endswith(f"may need a model with a larger limit {named}"), reason
    assert places is None or not AN_OPTION.search(reason), reason
    assert caught.value.details["reason"] == reason  # kept so in the run: where that run's model was set


@pytest.mark.parametrize(("places", "named"), [
    (None, "1 answer given up at --timeout-s: generated, so paid for"),
    (APP, "1 answer given up at the app's time limit for an answer: generated, so paid for")])
def test_an_answer_given_up_at_the_time_limit_names_where_the_limit_is_set(
        places: extract.SettingPlaces | None, named: str) -> None:
    # trickled over 8 s, past a limit of 3 s; the answer asked again is read whole (a loaded machine has 3 s)
    with FakeGemini([trickle(json.dumps(RECORDS), 8.0), answer(json.dumps(RECORDS))]) as server:
        extraction = extractor(server, places, timeout_s=3.0).extract(PAGE)
    assert extraction.records == RECORDS
    assert any(w.startswith(named) for w in extraction.warnings), extraction.warnings
    assert places is None or not any(AN_OPTION.search(w) for w in extraction.warnings), extraction.warnings


def test_a_model_the_endpoint_does_not_know_is_named_where_it_is_set() -> None:
    with FakeGemini(default=status(404, "models/gemini-9-nope is not found")) as server, \
            pytest.raises(ExtractionFailedError) as caught:
        extractor(server, APP, model="gemini-9-nope").extract(PAGE)
    assert ("the endpoint knows no model 'gemini-9-nope': check the model name first (the Gemini model in Settings; "
            "gemini-2.5-pro, for example)") in caught.value.reason, caught.value.reason
    assert not AN_OPTION.search(caught.value.reason), caught.value.reason


def test_an_endpoint_that_is_no_address_is_named_where_it_is_set() -> None:
    with pytest.raises(GeminiError) as caught:
        extract.create("gemini", api_key=KEY, base_url="ftp://127.0.0.1:9", setting_places=APP)
    assert str(caught.value).startswith("the Gemini endpoint in Settings 'ftp://127.0.0.1:9' is not an http://"), \
        str(caught.value)


def test_the_command_line_s_words_are_the_default_and_the_places_no_parameter_of_a_run() -> None:
    with FakeGemini([answer(json.dumps(RECORDS))]) as server:
        made = extractor(server, None)
        assert made.setting_places == extract.COMMAND_LINE == extract.SettingPlaces()
        app = extractor(server, APP)
        # which run it is does not depend on where its words say settings are set
        assert app.parameters == made.parameters and app.settings == made.settings
        assert app.caller.setting_places == APP


@pytest.fixture(autouse=True)
def _no_key_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
