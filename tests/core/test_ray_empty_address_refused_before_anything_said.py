"""An empty `--ray-address` (an unset variable, say) is refused before anything else is said: the command used to say
"starting a local Ray instance…" first, then that it would start none.

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): the line about starting Ray is said only
where Ray is installed, so this test skips where it is not (`make test-ray` installs it)."""

from __future__ import annotations

import pytest

from recordlens.core.cli.command import main

pytest.importorskip("ray")


@pytest.mark.parametrize("given", ["", "   "])
def test_an_empty_ray_address_is_the_one_line_said(given: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--pred", ".", "--gt", ".", "--pages", ".", "--engine", "ray", "--ray-address",
                 given]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == ["recordlens: error: --ray-address is empty: give the cluster head's host:port, or "
                                "auto on a machine of the cluster; leave --ray-address out to start a local Ray "
                                "instance"], err
