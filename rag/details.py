"""The specific details a question asks for (a batch size, which GPUs, a dose, the authors): what to look for in an abstract."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.acronyms import tables_in_use
from rag.focus import REPORT_VERB, VERBS_AFTER_SUBJECT, asked_focus
from rag.terms import singular_stem
from rag.types import DetailAsk
from rag.units import amount_in, asked_unit


# ---- specific details ----
_GPU_SHAPE = r"\b(?:[AHVLTP]\d{2,4}|RTX\s?\d{3,4}\w*|TPU\s?v?\d*|MI\d{3}|Ascend\s?\d*\w*|Gaudi\d?|Titan\s?\w+)\b"


# A name inside a sentence: "Sora", "Veo-3", "MuJoCo", "CogVideoX" after a lower-case word (not a sentence's first word).
_CASED_NAME = r"(?<=[a-z,(] )(?:[A-Z][a-z]+[\w.-]*|[A-Z][\w.-]*\d[\w.-]*|[A-Z][a-z]*[A-Z][\w.-]*[a-z][\w.-]*)"


# A model family's name ("GPT-4o", "Qwen2.5-VL-7B", "Claude 3", "Llama-3").
_MODEL_NAME = (r"\b(?:GPT-?[\w.]+|Claude(?:[\s-][\d.]+)?[\w.-]*|Gemini[\w.-]*|Qwen[\w.-]*|L[Ll]a[Mm][Aa][\w.-]*"
               r"|Mistral[\w.-]*|DeepSeek[\w.-]*|InternVL[\w.-]*|LLaVA[\w.-]*|o[134](?:-mini)?)\b")


# Details any field's question may ask: (pattern on the question, phrase, stems to find in a sentence, wants a number,
# wants a name, answer shape); with a shape, the stems only mark the sentence that comes closest when none matches it.
_ANY_FIELD_DETAILS: tuple[tuple[str, str, tuple[str, ...], bool, bool, str], ...] = (
    # An abstract rarely owns up to limits: only a sentence on the paper's own (not prior work's) answers.
    # Not those of prior work ("What failure modes of earlier methods does it fix?")
    (r"^(?!.*\b(?:fix|address|overcome|remed|tackl|mitigat|solv|resolv)\w*\b)"
     r".*?(?:\blimitations?|\bweakness(?:es)?|\bdrawbacks?|\bshortcomings?|\bfailure (?:cases|modes))\b"
     r"(?!\s+(?:of|in)\s+(?:[\w-]+\s+){0,2}?(?:existing|prior|previous|current|other|earlier|past|older|baseline"
     r"|conventional|standard))", "limitations",
     ("limit", "fail", "drawback", "weakness"), False, False,
     r"\b(?:a|one|the main|its|our)\s+limitations?\b|\bfuture work\b|\blimitations? of (?:our|this|the proposed)\b"
     r"|\b(?:our|this) (?:method|approach|model|framework)\s+(?:\w+\s+){0,3}(?:cannot|fails?|is limited)\b"),
    (r"\bcode\b[^?]*\b(?:released|available|open[- ]sourced?|public\w*|shared)\b"
     r"|\b(?:release|open[- ]source|share)\w*\b[^?]*\bcode\b|\bopen[- ]sourced?\W*$|\bgithub\b|\bsource code\b",
     "code's availability",
     ("code", "available", "release", "open-source"), False, False,
     r"https?://|github\.com|\b(?:code|implementation)s?\b[^.]*\b(?:available|released|open-sourced|public)\b"),
)


# Machine learning's details (compute, hardware, training settings, models and datasets), asked only of a corpus in
# the field of rag/acronyms.tsv: elsewhere "which accelerator facility" asks for no chip.
_ML_DETAILS: tuple[tuple[str, str, tuple[str, ...], bool, bool, str], ...] = (
    (r"\bgpu[- ]?hours?\b|\bcompute budget\b|\bhow long\b.*\btrain", "training compute",
     ("gpu hour", "gpu-hour", "hour", "day"), True, False, ""),  # not "compute": "at 5.2x lower compute" is no budget
    # how long the method itself takes to run ("How long does PatchKV take to compute the patch?"): a time with its unit
    # (not "runtime": a theory paper's runtime is a bound, "Θ(n^2)")
    (r"\bhow long\s+(?:does|did|do|would|will)\b[^?]*\b(?:take|run|last)\b|\bwall[- ]?clock\b|\bhow much time\b",
     "running time", ("second", "minute", "hour", "fps"), True, False,
     r"\b\d[\d.,]*\s*(?:ms|milli-?seconds?|seconds?|sec|minutes?|mins?|hours?|hrs?|days?|weeks?|fps|FPS)\b"
     r"|[ΘΟOΩ]\([^)]*\bn\b"),
    (r"\b(?:which|what)\s+(?:kind of\s+|type of\s+)?gpus?\b|\bgpu model\b", "GPU type",
     ("gpu", "tpu", "cluster", "hardware"), False, False, _GPU_SHAPE),
    # "physdnet which npu chip", "What hardware does it run on?": a named chip or board answers it, not "NPUs"
    (r"\b(?:which|what)\s+(?:kind of\s+|type of\s+|specific\s+)?(?:[\w-]+\s+)?(?:npus?|chips?|accelerators?|hardware"
     r"|boards?)\b", "hardware model", ("npu", "chip", "accelerator", "hardware", "board", "device"), False, False,
     rf"{_GPU_SHAPE}|\b(?:Jetson|Snapdragon|Hexagon|Edge\s?TPU|Coral|Myriad|Kirin|Raspberry\s+Pi|Apple\s+M\d)\w*"),
    # "Compare the memory savings of PatchKV and PipeFSDP": a figure for memory ("1.87× in memory consumption"), not a
    # sentence saying memory is the bottleneck; "skipping early iterations also saves memory" asks for no figure
    (r"\b(?:what|which|compare|how much|how big|how large|report\w*)\b[^?.]*\bmemory\s+(?:savings?|reductions?"
     r"|footprint|usage|consumption|overhead)\b|\bhow much memory\b", "memory savings", ("memory",), True, False, ""),
    # what a method costs at inference ("how much extra vram and latency does it add?"): a figure, or said not stated
    (r"\bhow much\s+(?:extra\s+|additional\s+|more\s+)?(?:vram|gpu memory)\b|\b(?:vram|memory)\s+overhead\b",
     "memory overhead", ("memory", "vram"), True, False, ""),
    (r"\b(?:how much|what(?:'s|\s+is|\s+are)?(?:\s+the|\s+its)?)\s+(?:extra\s+|additional\s+|more\s+)?"
     r"(?:[\w-]+\s+and\s+)?latency\b|\blatency\s+(?:overhead|cost|penalty)\b", "latency",
     ("latency", "millisecond"), True, False,
     r"\b\d[\d.,/]*\s*(?:ms|milli-?seconds?|FPS|fps)\b|\blatency\b[^.]*\b\d[\d.,]*\s*(?:×|x\b|%)"),
    # "How much faster is PatchKV?": a factor or a percentage ("up to 10× faster", "at 5.2x lower compute"), not a
    # sentence that only calls the method efficient
    (r"\bhow (?:much|many times) (?:faster|quicker)\b|\b(?:what|which|how (?:big|large|much))\s+(?:[\w-]+\s+){0,2}?"
     r"speed-?ups?\b|\bspeed-?up (?:factor|figure)\b", "speed-up figure",
     ("faster", "speed", "accelerat", "efficien", "inference cost", "latency", "throughput"), True, False,
     r"\b\d[\d.,]*\s*(?:×|x\b|times\b)|\bspeed-?ups? of \d|\b\d[\d.,]*\s*%\s*(?:faster|speed|less time|lower latency"
     r"|higher throughput)"),
    (r"\blearning[- ]rate\b", "learning rate", ("learning rate", "learning-rate", "lr"), True, False, ""),
    # a named optimizer, or a named descent method ("Projected Gradient Descent converges globally")
    (r"\boptimi[sz]er\b", "optimizer", ("optimi",), False, False,
     r"\b(?:Adam\w*|SGD|LAMB|Adafactor|RMSprop|Lion|Muon|L-?BFGS|AdaGrad)\b"
     r"|\b(?i:(?:projected|stochastic|natural|mirror|proximal|accelerated|conjugate|coordinate)\s+)?"
     r"(?i:gradient\s+descent|newton's\s+method)\b"),
    (r"\bbatch[- ]size\b", "batch size", ("batch size", "batch-size", "batch"), True, False, ""),
    (r"\b(?:training|rl|optimi[sz]ation|gradient)\s+steps\b|\bhow many (?:\w+\s+)?(?:steps|epochs|iterations)\b",
     "number of training steps", ("step", "epoch", "iteration"), True, False, ""),
    (r"\blicen[cs]e\b", "license", ("licen", "available", "release"), False, False,
     r"\b(?:CC[- ]BY[\w\-.]*|MIT licen\w+|Apache|GPL|BSD|licen[cs]ed)\b"),
    (r"\b(?:github|url|link|repository|repo)\b|\bwhere\b.*\bcode\b", "code location",
     ("code", "available", "release"), False, False,
     r"https?://|github\.com|www\.|\.(?:io|org|com)/"),
    (r"\bannotators?\b|\braters?\b|\bcrowd[- ]?workers?\b", "number of annotators",
     ("annotator", "rater", "worker", "expert"), True, False, ""),
    # "Which LLM does ViDiC-1K use as its judge?": a model's name in a sentence on the judge ("judged by GPT-4o"), not
    # "an LLM-as-a-Judge protocol"
    (r"\b(?:which|what)\s+(?:specific\s+|exact\s+)?(?:[\w-]+\s+)?(?:llm|model|vlm|mllm)\b[^?]*"
     r"\b(?:judge|grader|evaluator)|\bjudge\s+(?:llm|model|vlm|mllm)\s+(?:which|what)\b"
     r"|\b(?:which|what)\s+judge\s+(?:llm|model|vlm|mllm)\b",
     "judge model", ("judge", "grader", "evaluator"), False, True,
     rf"(?i:judg|grad|evaluat)\w*\W+(?:[\w-]+\W+){{0,8}}?{_MODEL_NAME}|{_MODEL_NAME}\W+(?:[\w-]+\W+){{0,8}}?"
     r"(?i:judg|grad|evaluat)"),
    # "Which model was the best one on PhysElite?": a model's name beside "best"/"strongest", not "even the strongest
    # model reaches only 33.7%"
    (r"\b(?:which|what)\s+(?:[\w-]+\s+)?(?:model|llm|vlm|mllm|system)\s+(?:was|is|did|does|got|achieved|performed"
     r"|scored|came)\b[^?]*\b(?:best|top|strongest|highest)\b|\b(?:which|what)\s+(?:was|is)\s+the\s+(?:best|top"
     r"|strongest)(?:[\s-]+(?:performing|scoring))?\s+(?:model|llm|vlm|mllm|system)\b", "best model",
     ("best", "strongest", "top", "highest"), False, True,
     rf"(?i:best|strongest|top|highest|leading)\W+(?:[\w-]+\W+){{0,6}}?{_MODEL_NAME}"
     rf"|{_MODEL_NAME}\W+(?:[\w-]+\W+){{0,6}}?(?i:best|strongest|top|highest|outperform)"),
    # which backbone, not whether it is kept frozen ("Do both keep their backbone frozen, or update it?")
    (r"^(?!.*\b(?:frozen|freez\w*|unfrozen|updat\w*)\b).*?(?:\bbackbone\b|\bbase\s+[\w-]*(?:model|llm|vlm|lm)s?\b"
     r"|\bfine-?tunes?\b.*\bmodel\b)",
     "backbone model",
     ("backbone", "base model", "built on", "fine-tun", "initializ"), False, True, ""),
    (r"\b(?:which|what) (?:specific\s+)?(?:\w+\s+)?(?:models|llms|vlms|lvlms|mllms|networks|architectures)\b",
     "models evaluated",
     ("model", "llm", "vlm", "lvlm", "mllm", "network"), False, True, ""),
    # "Which text-to-video generators produced the videos?": answered only by a name beside such a word ("videos
    # generated by Sora and Kling"), not by any capitalised word of the abstract
    # "Which pretrained spatio-temporal encoder does PhyProbe use?": likewise a name beside "encoder"
    (r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}(?:generators|simulators|engines|solvers|encoders?|tokenizers?)\b",
     "{asked}", ("generat", "simulat", "engine", "solver", "encoder", "tokenizer"), False, True,
     rf"(?i:\b(?:generat|simulat|engine|solver|encoder|tokenizer)\w*)\W+(?:[\w-]+\W+){{0,6}}?{_CASED_NAME}"
     rf"|{_CASED_NAME}\W+(?:[\w-]+\W+){{0,6}}?(?i:(?:generators?|simulators?|engines?|solvers?|encoders?|tokenizers?)\b)"),
    # the singular only as asked of a paper ("What dataset did it use?"), not for one ("Which benchmark tests ...?")
    (r"\b(?:which|what) (?:\w+\s+)?(?:datasets|benchmarks)\b"
     r"|\b(?:which|what) (?:\w+\s+)?(?:dataset|benchmark)\s+(?:did|does|do|was|were|is|are)\b", "datasets",
     ("dataset", "benchmark", "corpus", "data"), False, True, ""),
    # "How much money did it cost to put together?": a sum of money, stated only with its currency.
    (r"\bhow much (?:money|did (?:it|they|this|that) (?:cost|spend))\b"
     r"|\b(?:cost|budget|spen[dt]|price)\w*\b[^?]*\b(?:dollars?|usd|euros?|money)\b", "monetary cost",
     ("cost", "dollar", "usd", "euro", "budget", "spen"), True, False,
     r"[$€£]\s?\d|\b\d[\d,.]*\s?[kKmM]?\s?(?:USD|dollars?|euros?)\b"),
    (r"\bparameters?\b.*\bhow many\b|\bhow many parameters\b|\bmodel size\b", "model size",
     ("parameter", "param", "billion", "million"), True, False,
     # "1.3B parameters", "a 7-billion-parameter model", or a size in a model's name ("PERIA-8B"; "WebVid-10M" is
     # a dataset's)
     r"\b\d+(?:\.\d+)?[\s-]?(?:[BMK]|billion|million)[\s-]+param\w*|\b[A-Z][\w.]*-\d+(?:\.\d+)?B\b"),
    (r"\bseeds?\b|\bhow many runs\b", "number of random seeds", ("seed", "run"), True, False, ""),
    # "What accuracy does the best MLLM reach?": a score, stated only with its number.
    (r"\b(?:what|which|how much|how high)\s+(?:\w+\s+){0,4}(?:accuracy|score|f1|auc|success rate|error rate|bleu|psnr"
     r"|ssim)\b", "{asked}", ("accura", "score", "f1", "auc", "success rate", "error rate", "bleu", "psnr", "ssim"),
     True, False, ""),
)


# What "how many" counts, up to three words (a lookahead: "how many GPUs and how many hours" asks twice).
_HOW_MANY = re.compile(r"\bhow many\s+(?=((?:[a-z0-9-]+(?:/\s*[a-z0-9-]+)*\s+){0,2}[a-z0-9-]+(?:/\s*[a-z0-9-]+)*))",
                       re.I)


_SUBJECTS = frozenset("you we they i one".split())


# A genus written by its initial before the species ("E. coli", "A. gracilipes").
_GENUS_INITIAL = re.compile(r"\b[A-Z]\.\s+(?=[a-z]{3,}\b)")


_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s*)\W*$")
# A yes/no question whether a paper reports a count: "did they report / say / specify how many ...".
_REPORT_VERB_BEFORE = re.compile(rf"\b(?:{REPORT_VERB}|(?:say|tell)\w*)\s+$", re.I)


# Words that end what "how many" counts ("how many GPUs did", "how many layers in", "how many GPUs and how many hours",
# "how many models each one evaluated").
_COUNTED_END = frozenset("""do does did is are was were be been have has had can could will would in of on for to and or
    each every per the a an it its their this that these those with at by from as than used taking participated
    contributed joined helped worked annotated labeled labelled rated needed""".split()) | VERBS_AFTER_SUBJECT


# What an asker may call the datasets a benchmark is built from ("how many public source collections ...?": "Built from
# 23 public pathology imaging datasets").
_DATASET_WORDS = frozenset("collection source corpus corpora database repositor".split())


_FILLER = frozenset("different distinct total unique separate individual other more of".split())


# Details a paper's record gives, never its abstract: (pattern on the question, phrase, record field).
_RECORD_DETAILS = (
    # Asked for by who they are ("Who are the authors of X?", "X's authors?", "who wrote X"), not by what they did
    # ("the PROVE authors use", "these authors argue that ...").
    (r"\b(?:who|what|which)\s+(?:are|were|is)\s+(?:the\s+|its\s+|their\s+)?(?:[\w'’-]+\s+){0,3}?authors?\b"
     r"|\bauthors?\s+(?:of|behind)\b|\b(?:list|name|give|show)\s+(?:me\s+)?(?:the\s+|its\s+)?authors?\b"
     r"|(?<!according to the )(?<!according to its )\bauthors?(?:'\s+names)?\s*\?"
     r"|\bwho (?:wrote|authored|proposed|introduced|developed|created|made)\b"
     r"|\bwritten by\b|\bby whom\b", "authors", "authors"),
    (r"\b(?:when|what year|which year)\b[^?]*\b(?:published|released|appear\w*|come out|presented)\b"
     r"|\b(?:which|what) (?:venue|conference|journal)\b|\bwhere (?:was|is) [^?]*\bpublished\b", "venue and year",
     "venue_year"),
)


# "Which three model architectures was it evaluated on?": the names of things the abstract may only count.
_WHICH_COUNTED = re.compile(r"\bwhich\s+(two|three|four|five|six|seven|eight|nine|ten|\d+)\s+((?:[a-z-]+\s+){0,2}?[a-z-]+)"
                            r"(?=\s+(?:do|does|did|was|were|is|are|has|have|had)\b)", re.I)


# A count stated before the question asking for the names: "PatchKV was evaluated on three model architectures. Which
# specific models were they?"
_STATED_COUNT = re.compile(
    r"(?<![\d,.])\b(two|three|four|five|six|seven|eight|nine|ten|\d+)\s+((?:[a-z-]+\s+){0,2}[a-z-]+)\b", re.I)


_WHICH_WERE_THEY = re.compile(
    r"[.!]\s+which\s+(?:specific\s+|exact\s+)?([a-z-]+)\s+(?:were|are)\s+(?:they|these|those)\b", re.I)


def _count_then_which(question: str) -> tuple[str, str] | None:
    """The count and the counted things when a statement counts what the question then asks to name: "... on three
    model architectures. Which specific models were they?" -> ("three", "model architectures")."""
    ask = _WHICH_WERE_THEY.search(question)
    if not ask:
        return None
    asked = singular_stem(ask.group(1).lower())
    for count in _STATED_COUNT.finditer(question[:ask.start() + 1]):
        words = count.group(2).split()
        for end in range(len(words), 0, -1):  # "three model architectures": up to the word asked for, or all of them
            if asked in {singular_stem(w.lower()) for w in words[:end]}:
                return count.group(1), " ".join(words[:end])
    return None


# A name right after the counted word ("architectures Llama-3, Qwen2 and Mistral"), or a list it introduces
# ("baselines—linear patch embedding, ...", "baselines such as VideoScore").
_NAME_AFTER = (r"(?:\s*[\u2014:(]|\s+[-\u2013]\s|,?\s+(?:such as|including|namely|like|e\.g\.)\s"
               r"|\W+(?:[a-z]+\W+){{0,3}}?(?!{own}\b)(?:[A-Z][A-Za-z]*\d[\w.-]*|[A-Z][a-z]+[A-Z][\w-]*|[A-Z]{{2,}}[\w-]*"
               r"|[A-Z][a-z]+\b))")


# Where a statement ends and the next sentence starts ("I remember a paper on X. What bound did it prove?").
_STATEMENT_END = re.compile(r"(?<=[a-z0-9)][.!])\s+(?=[A-Z])")


def asking_sentences(question: str) -> str:
    """The sentences of a question that ask (end in "?"), when others only describe: "I vaguely remember a paper
    proving that an evolutionary optimizer gets faster. What runtime bound did they prove?" asks for no optimizer."""
    sentences = _STATEMENT_END.split(question.strip())
    asking = [s for s in sentences if s.rstrip().endswith("?")]
    return " ".join(asking) if asking and len(asking) < len(sentences) else question


def asked_details(question: str, written: Callable[[tuple[str, ...]], bool] | None = None) -> list[DetailAsk]:
    """The specific details (numbers, settings, named resources, authors and venue) a question asks for, if any;
    ``written`` as for rag.focus.asked_focus."""
    whole, question = question, asking_sentences(question)
    found, counted = [], []  # counted: where a specific pattern asks for a number
    for pattern, phrase, terms, number, name, shape in _ANY_FIELD_DETAILS + (_ML_DETAILS if tables_in_use() else ()):
        if match := re.search(pattern, question, re.I):  # "{asked}": the asker's word for it ("accuracy", "PSNR")
            found.append(DetailAsk(phrase.format(asked=match.group().split()[-1]), terms, number, name, shape))
            if number:
                counted.append(match.span())
    if unit := asked_unit(question):  # "in µeV", "(ppm)": a number in that unit answers, not the thing's name
        found.append(DetailAsk(f"value in {unit}", (), True, False, amount_in(unit)))
    for pattern, phrase, record in _RECORD_DETAILS:
        if re.search(pattern, question, re.I):
            found.append(DetailAsk(phrase, (), False, False, record=record))
    counted_things = [(m.group(1), m.group(2), question[m.end():]) for m in _WHICH_COUNTED.finditer(question)]
    if said_count := _count_then_which(whole):  # "... on three model architectures. Which models were they?"
        counted_things.append((*said_count, whole))
    for count, things, after in counted_things:
        stem = singular_stem(things.split()[-1].lower())
        if any(stem in d.terms for d in found) and not said_count:
            continue  # "which three datasets": the datasets detail finds them by name
        # the names of the counted ones, not any name ("models evaluated" is asked as "model architectures")
        found = [d for d in found if not {singular_stem(w.lower()) for w in things.split()} & set(d.terms)]
        own = "|".join(re.escape(w) for w in re.findall(r"[A-Z][\w-]*", after)) or "$^"
        found.append(DetailAsk(f"names of the {count} {things}", (stem,), False, True,
                               rf"(?i:\b{re.escape(stem)})\w*{_NAME_AFTER.format(own=own)}"))
    # "how many GPU hours": already asked for by a specific pattern; "how many GPUs and how many hours": two details
    question = _GENUS_INITIAL.sub("", question)  # "how many A. gracilipes ants": ants of that species
    for match in _HOW_MANY.finditer(question):
        if any(a < match.end(1) and match.start() < b for a, b in counted):
            continue
        counted_words = re.sub(r"/\s+", "/", match.group(1)).split()  # "conversations/ users": one of two
        tokens = counted_words + question[match.end(1):].split()
        words, subject, end = [], None, len(tokens)
        for i, word in enumerate(tokens[:len(counted_words) + 1]):
            if word.lower() in _COUNTED_END or word.lower() in _SUBJECTS:
                subject, end = word.lower() in _SUBJECTS, i
                break
            if i < len(counted_words) and word.lower() not in _FILLER:
                words.append(word)  # the asker's casing is kept for the answer ("GPUs")
        if subject and not _SENTENCE_START.search(question[:match.start()]) \
                and not _REPORT_VERB_BEFORE.search(question[:match.start()]):
            continue  # "decisions like how many run logs you feed back": describes the paper, asks nothing ("did they
            # report how many particles they used" asks)
        if words:
            counted_as = " ".join(words)  # "synthesized tool-use trajectories"
            if tokens[end:end + 1] == ["per"] and len(tokens) > end + 1:
                counted_as += f" per {tokens[end + 1].strip('?.,!')}"  # a rate: "frames per second"
            # "how many VLMs/MLLMs": a count of either
            stems = tuple(singular_stem(word.lower()) for word in words[-1].split("/") if word)
            terms = stems + ("dataset",) if set(stems) & _DATASET_WORDS else stems
            found.append(DetailAsk(f"number of {counted_as}", terms, True, False, counted=True))
    # The patterns above know machine learning's details; failing them, the thing a what/which question names. Where
    # they apply, only an amount so named is a detail ("what diffusion coefficient", "below what block size"): a bare
    # "what X" there is a part of the paper's story ("what fix", "which sensor inputs"), told in other words, and a
    # measure's units are not its field's ("how long were the contexts": "up to 170k tokens").
    return found or [d for d in asked_focus(question, written) if (d.wants_number and not d.shape)
                     or not tables_in_use()]
