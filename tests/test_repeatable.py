"""The same question reads the same on every run: papers named at one place of a question (three papers on "WISPIT
2b", real arXiv astro-ph.EP abstracts, tests/data/planets) come in one order whatever Python's hash seed."""

import os
import subprocess
import sys

from tests.conftest import REPO

_MENTIONS = """
from store.parse import parse_file
from rag.catalog import PaperCatalog
catalog = PaperCatalog(parse_file("tests/data/planets/abstracts.jsonl").papers)
question = "There are two discovery papers on WISPIT 2b, one with MagAO-X and one with SPHERE. How do they compare?"
print([pid for *_, pid in catalog.mentions(question)])
"""


def test_papers_named_at_one_place_come_in_one_order_on_every_run():
    orders = set()
    for seed in ("1", "2", "3", "4"):
        run = subprocess.run([sys.executable, "-c", _MENTIONS], cwd=REPO, capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        orders.add(run.stdout.strip().splitlines()[-1])
    assert len(orders) == 1, orders
    assert orders.pop().count("2508.") == 3  # WISPIT 2b: the MagAO-X paper, the SPHERE paper and one more
