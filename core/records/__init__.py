"""Records (sets of XPaths): normalisation and expansion to text keys, `N.json` files, a record's place among its
siblings, NEXT-EVAL's score, and the review of a run against the labels.

    from recordlens.core.records import TextKeyIndex, load_records, score_page
"""

from .agreement import DIFFERENT, ONLY_A, ONLY_B, Agreement, Disagreement, PageAgreement, agreement, compare_page
from .model import (
    RecordsFile,
    TextKeyIndex,
    load_records,
    new_records,
    normalise_xpath,
    parse_records,
    record_key,
    save_records,
)
from .record_sizes import element_words
from .record_text import TEXT_SEPARATOR, texts_of_record
from .review import (
    KINDS,
    MATCH_THRESHOLD,
    MATCHED,
    MISSED,
    PARTIAL,
    SPURIOUS,
    PageReview,
    ReviewRecord,
    review_page,
    worst_pages,
)
from .score import DatasetScore, Match, PageScore, jaccard, score_page
from .siblings import (
    click_effect,
    parent_xpath,
    places_in_page_order,
    relevelled,
    replace_xpath,
    same_list,
    sibling_records,
    siblings_above,
    split_parts,
    toggle_xpath,
    whole_page,
)

__all__ = [
    "DIFFERENT", "ONLY_A", "ONLY_B", "Agreement", "Disagreement", "PageAgreement", "agreement", "compare_page",
    "KINDS", "MATCHED", "MATCH_THRESHOLD", "MISSED", "PARTIAL", "SPURIOUS", "DatasetScore", "Match", "PageReview",
    "PageScore", "RecordsFile", "ReviewRecord", "TextKeyIndex", "jaccard", "load_records", "new_records",
    "normalise_xpath", "parse_records", "record_key", "click_effect", "parent_xpath", "places_in_page_order",
    "relevelled",
    "replace_xpath",
    "review_page", "element_words",
    "same_list", "save_records", "score_page", "sibling_records", "siblings_above", "split_parts", "toggle_xpath",
    "whole_page", "worst_pages", "TEXT_SEPARATOR", "texts_of_record",
]
