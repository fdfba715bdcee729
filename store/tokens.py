"""Tokens of an abstract: sentences, the core of a token, whether it is a coined name or an everyday acronym."""

from __future__ import annotations

import re

# Acronyms that are everyday vocabulary in abstracts, not the name of the paper's contribution.
_COMMON = frozenset(
    """
    ai ml dl rl nlp cv llm vlm mllm lvlm lmm slm gpu cpu tpu api sota cnn rnn gnn gan vae mlp sgd ode
    pde sde kl mdp pomdp qa vqa ood id iid us uk eu vit gpt bert clip rlhf dpo ppo grpo moe nerf cot
    rag kv flops mfu f1 auc roc mse mae psnr ssim fid iou map bleu rouge nas svm pca ica em mcmc
    hmm crf lstm gru ssm bo gp gps rkhs ntk pac ucb td dqn sac ppl lm lms nn dnn ann snn imu rgb
    rgbd lidar mri ct ecg eeg fmri dna rna url html json csv pdf ii iii iv xai gans
    """.split()
)


FUNCTION_WORDS = frozenset(
    "a an the of for and or in on with to via by from at as into onto over under its their our "
    "this these that which is are be".split()
)


_DETERMINERS = ("a", "an", "the", "our", "one", "some", "this", "its", "their")


_EVALUATIVE = ("novel", "new", "simple", "principled", "general", "generic", "straightforward",
               "first", "unique", "powerful", "innovative", "elegant", "first-ever", "brand-new")


_YET = re.compile(r"^(?:simple|novel|effective|efficient|general|lightweight|practical)"
                  r"(?:,? (?:yet|but|and) (?:highly )?(?:effective|efficient|powerful|general|scalable))\s+",
                  re.I)


_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Eq.", "approx.", "resp.",
                  "w.r.t.", "a.k.a.", "i.i.d.", "Dr.", "Inc.", "No.", "Sec.", "al.")


_DOT = "\u2024"  # stands in for abbreviation dots while splitting sentences


TOKEN_STRIP = ".,;:!?\"'“”‘’()[]{}<>*"


def split_sentences(text: str) -> list[str]:
    """Split into sentences without breaking on e.g./et al./decimals."""
    protected = text
    for abbr in _ABBREVIATIONS:
        protected = protected.replace(abbr, abbr.replace(".", _DOT))
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(\[$*\\])", protected)
    return [p.replace(_DOT, ".").strip() for p in parts if p.strip()]


def core_token(token: str) -> str:
    """A token without surrounding punctuation or a possessive ending."""
    core = token.strip(TOKEN_STRIP)
    core = re.sub(r"['’]s$", "", core)
    return core.strip(TOKEN_STRIP)


def is_common_acronym(core: str) -> bool:
    low = core.lower()
    return low in _COMMON or (low.endswith("s") and low[:-1] in _COMMON)


def part_is_coined(part: str) -> bool:
    letters = [c for c in part if c.isalpha()]
    if not letters:
        return False
    upper = sum(c.isupper() for c in letters)
    pairs = list(zip(part, part[1:]))
    if any(a.islower() and b.isupper() for a, b in pairs) or re.search(r"[A-Z]{2}[a-z]", part):
        return True  # CamelCase (Unicode too): PhysVista, ViDiC, LoRA, CaféNet
    if upper >= 2 and upper >= len(letters) - 1:
        return True  # ALLCAPS (allowing a plural s): VISD, PROVE
    return bool(re.search(r"\d", part)) and part[:1].isalpha()  # R1, V1, Qwen3


def is_coined(token: str) -> bool:
    """Does this token look like a made-up name (CamelCase, ALLCAPS, digits, capitalised hyphen parts)?"""
    core = core_token(token)
    if len(core) < 2 or not re.search(r"[A-Za-z].*[A-Za-z]|[A-Za-z]\d|\d[A-Za-z]", core):
        return False
    if "\\" in core or is_common_acronym(core):
        return False
    parts = [p for p in re.split(r"[-/]", core) if p]
    if not parts:
        return False
    last = parts[-1]
    if last.isalpha() and last.islower() and len(parts) > 1:
        return False  # LoRA-based, LLM-guided: a modifier, not a name
    if all(is_common_acronym(p) or not part_is_coined(p) for p in parts):
        return False
    return core[:1].isalnum()


def strip_lead(phrase: str) -> str:
    """Drop determiners and praise ("a novel", "the", "simple yet effective") from a noun phrase."""
    words = phrase.split()
    changed = True
    while words and changed:
        changed = False
        m = _YET.match(" ".join(words) + " ")
        if m:
            words, changed = (" ".join(words) + " ")[m.end():].split(), True
            continue
        low = words[0].lower().strip(TOKEN_STRIP)
        if low in _DETERMINERS or low in _EVALUATIVE:
            words, changed = words[1:], True
    return " ".join(words)
