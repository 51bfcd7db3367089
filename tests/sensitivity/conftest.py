"""The sensitivity tests write many small run folders: flushing each to the disk is durability,
which these tests do not check, so it is skipped here to keep them quick on a busy machine."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="package", autouse=True)
def _no_disk_flush():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "fsync", lambda fd: None)
        yield
