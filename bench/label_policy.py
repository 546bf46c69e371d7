"""Can a page's structure tell whether its labels count page chrome? Measured on the 80 development pages.

The labels of some development pages count records in page chrome (menus, footer link columns: `recordlens
labels check`), most do not. A selector could follow each page's policy if the page itself showed which one
its labeller followed. This script asks that question directly: each page is one sample, its class is the policy
`labels check` reads off its labels, and its description is built from its candidate regions only (never from
its labels): how many candidates lie in page chrome and how much of the candidates' text they hold, the largest
list inside and outside chrome, and the mean of every candidate feature over the chrome candidates and over the
others. Two classifiers (a logistic regression and a random forest) are scored by stratified 5-fold
cross-validation over pages, over 3 fold splits, as ROC AUC: 0.5 is what a coin does, 1.0 a perfect reading of
the policy. Each single summary's AUC is printed beside them.

Usage: python bench/label_policy.py [--splits R]"""

from __future__ import annotations

import argparse
import statistics
import sys

import numpy as np
from dev_data import development_sets
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from recordlens.core.extract.training import Example, prepare
from recordlens.core.records.hygiene import check_page
from recordlens.core.runs.cross_validation import in_chrome, labelled_sets

SUMMARIES = ("log candidates", "share of candidates in chrome", "log candidates in chrome",
             "log largest list", "log records in chrome", "log largest list outside chrome",
             "share of candidate text in chrome")


def page_summaries(e: Example, chrome: np.ndarray) -> list[float]:
    """The page's few structural summaries (SUMMARIES), from its candidates alone (`chrome`: `in_chrome(e)`)."""
    regions = [c.region for c in e.candidates.candidates]
    if not regions:
        return [0.0] * len(SUMMARIES)
    counts = np.array([r.count for r in regions])
    mass = np.array([sum(r.sizes) for r in regions], dtype=float)
    return [
        np.log1p(len(regions)), float(chrome.mean()), np.log1p(chrome.sum()), np.log1p(counts.max()),
        np.log1p(counts[chrome].sum()), np.log1p(counts[~chrome].max(initial=0)),
        float(mass[chrome].sum() / mass.sum()) if mass.sum() else 0.0,
    ]


def page_description(e: Example) -> np.ndarray:
    """The summaries plus the mean candidate features inside and outside chrome."""
    chrome = in_chrome(e)
    width = e.features.shape[1]
    inside = e.features[chrome].mean(axis=0) if chrome.any() else np.zeros(width)
    outside = e.features[~chrome].mean(axis=0) if (~chrome).any() else np.zeros(width)
    return np.concatenate([page_summaries(e, chrome), inside, outside])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--splits", type=int, default=3, help="fold splits (seeds 0..R-1)")
    args = parser.parse_args()
    labelled = labelled_sets(development_sets())
    examples = prepare(labelled)
    policy = np.array([check_page(lp.name, lp.page, lp.truth).includes_chrome for lp in labelled], dtype=int)
    x = np.array([page_description(e) for e in examples])
    print(f"{len(examples)} pages, {policy.sum()} whose labels count page chrome; "
          f"{x.shape[1]} numbers describe each page")
    learners = {
        "logistic regression": lambda: make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=5000)),
        "random forest": lambda: RandomForestClassifier(n_estimators=300, min_samples_leaf=3, random_state=0),
    }
    for name, make in learners.items():
        aucs = []
        for seed in range(args.splits):
            folds = StratifiedKFold(5, shuffle=True, random_state=seed)
            scores = cross_val_predict(make(), x, policy, cv=folds, method="predict_proba")[:, 1]
            aucs.append(roc_auc_score(policy, scores))
        print(f"{name:<22} cross-validated AUC {statistics.fmean(aucs):.3f} "
              f"(splits: {', '.join(f'{a:.3f}' for a in aucs)})")
    print("single summaries, AUC on all pages (no fit; 0.5 = no signal either way):")
    for k, name in enumerate(SUMMARIES):
        print(f"  {name:<36} {roc_auc_score(policy, x[:, k]):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
