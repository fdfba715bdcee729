"""The calibrated decision of a lookup (rag/answerable.py): a question no loaded paper is surely about gets the closest
paper, said to be only that; one clearly off the corpus gets a flat refusal; the shipped model is what decides."""

from rag import PaperChat
from rag.answerable import answerable_model
from ui.render import sources_html

NEAR_MISS = "Which paper uses graph neural networks to predict flight delays at airports?"  # a GNN paper, not on flights
OFF_CORPUS = "robot grasping with tactile sensors"


def test_the_shipped_model_has_ordered_thresholds():
    model = answerable_model()
    assert model is not None, "rag/answerable_model.json is missing: python bench/answerable_model.py --refit"
    assert 0.0 < model.hedge_min <= model.answer_min < 1.0
    assert len(model.features) == len(model.coef) == len(model.mean) == len(model.scale)


def test_a_near_miss_gets_the_closest_paper_said_to_be_only_that(seed_chat):
    answer = seed_chat.ask(NEAR_MISS)
    assert answer.hedged and not answer.refused
    model = answerable_model()
    assert answer.probability is not None and model.hedge_min <= answer.probability < model.answer_min
    closest = answer.citations[0]
    assert answer.text.startswith(f"No loaded paper is surely about this; the closest is {closest.paper.name} "
                                  f"[{closest.n}]:")
    assert answer.to_dict()["hedged"] is True
    assert "Closest match only" in sources_html(answer)


def test_a_question_clearly_off_the_corpus_is_refused_flatly(seed_chat):
    answer = seed_chat.ask(OFF_CORPUS)
    assert answer.refused and not answer.hedged
    assert answer.probability < answerable_model().hedge_min


def test_without_the_model_the_gates_decide(seed_store_dir):
    """``retrieval_calibrated=False``: no hedge, the gates' answer or refusal stands."""
    gates_only = PaperChat(store_dir=seed_store_dir, retrieval_calibrated=False)
    answer = gates_only.ask(NEAR_MISS)
    assert not answer.hedged and answer.probability is None
