"""Resolve the LaTeX (and light Markdown) found in abstracts into plain readable text."""

from __future__ import annotations

import re
import unicodedata

# Macros whose argument is the visible text (formatting, fonts, boxes, accents over symbols).
_KEEP_ARG = frozenset(
    """
    textbf textit textsc textsl textup textmd textrm textsf texttt textnormal emph underline uline
    mathrm mathbf mathbb mathcal mathsf mathtt mathit mathfrak mathscr mathnormal boldsymbol bm
    text mbox hbox fbox makebox operatorname ensuremath smash mathring
    hat widehat tilde widetilde bar overline vec dot ddot check breve acute grave underbrace overbrace
    overrightarrow overleftarrow textup uppercase lowercase MakeUppercase MakeLowercase textls
    textsuperscript textsubscript
    """.split()
)
# Macros whose (optional + one mandatory) arguments are dropped with them.
_DROP_ARG = frozenset(
    """
    cite citep citet citealp citealt citeauthor citeyear citenum nocite parencite textcite autocite
    ref eqref autoref cref Cref pageref nameref label footnote footnotetext footnotemark thanks
    vspace hspace vskip hskip includegraphics bibliography bibliographystyle input include
    color pagestyle thispagestyle setlength addtolength phantom hphantom vphantom
    """.split()
)
# Macros whose argument is shown exactly as written.
_VERBATIM_ARG = frozenset("url nolinkurl path".split())
# Macros with two arguments where only the second one is text.
_SECOND_ARG = frozenset("href textcolor colorbox".split())
# Bare macros that only change style or spacing: they vanish.
_DROP_BARE = frozenset(
    """
    left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr middle displaystyle
    textstyle scriptstyle limits nolimits nonumber notag noindent centering raggedright small large
    Large LARGE huge Huge tiny scriptsize footnotesize normalsize it rm sf tt sc sl em bfseries
    itshape mdseries rmfamily sffamily ttfamily scshape upshape normalfont maketitle relax protect
    xspace nobreak allowbreak hfill vfill newpage clearpage medskip bigskip smallskip
    """.split()
)
_SYMBOLS: dict[str, str] = {
    "times": "×", "sim": "~", "approx": "≈", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥",
    "leqslant": "≤", "geqslant": "≥", "pm": "±", "mp": "∓", "rightarrow": "→", "to": "→",
    "longrightarrow": "→", "leftarrow": "←", "gets": "←", "Rightarrow": "⇒", "Leftarrow": "⇐",
    "Leftrightarrow": "⇔", "leftrightarrow": "↔", "mapsto": "↦", "uparrow": "↑", "downarrow": "↓",
    "implies": "⇒", "iff": "⇔", "neq": "≠", "ne": "≠", "equiv": "≡", "propto": "∝", "cdot": "·",
    "cdots": "…", "ldots": "…", "dots": "…", "vdots": "⋮", "ddots": "⋱", "infty": "∞",
    "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
    "supseteq": "⊇", "cup": "∪", "cap": "∩", "emptyset": "∅", "varnothing": "∅",
    "forall": "∀", "exists": "∃", "neg": "¬", "lnot": "¬", "land": "∧", "wedge": "∧",
    "lor": "∨", "vee": "∨", "oplus": "⊕", "otimes": "⊗", "odot": "⊙", "circ": "∘", "bullet": "•",
    "star": "⋆", "ast": "∗", "dagger": "†", "ddagger": "‡", "partial": "∂", "nabla": "∇",
    "sum": "Σ", "prod": "∏", "int": "∫", "oint": "∮", "sqrt": "√", "ll": "≪", "gg": "≫",
    "lesssim": "≲", "gtrsim": "≳", "simeq": "≃", "cong": "≅", "perp": "⊥", "parallel": "∥",
    "mid": "|", "vert": "|", "Vert": "‖", "|": "‖", "langle": "⟨", "rangle": "⟩",
    "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋", "ell": "ℓ", "hbar": "ℏ",
    "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ", "prime": "′", "deg": "°", "degree": "°",
    "checkmark": "✓", "top": "⊤", "bot": "⊥", "triangle": "△", "square": "□", "S": "§",
    "P": "¶", "copyright": "©", "textregistered": "®", "texttrademark": "™", "euro": "€",
    "pounds": "£", "textasciitilde": "~", "textasciicircum": "^", "textbackslash": "\\",
    "textbar": "|", "textless": "<", "textgreater": ">", "textbullet": "•", "textdegree": "°",
    "textendash": "–", "textemdash": "—", "textquoteleft": "‘", "textquoteright": "’",
    "textquotedblleft": "“", "textquotedblright": "”", "textellipsis": "…", "textperiodcentered": "·",
    "textmu": "µ", "quad": " ", "qquad": " ", "enspace": " ", "thinspace": " ", "space": " ",
    "newline": " ", "linebreak": " ", "par": " ", "item": " ", "and": " and ",
    "LaTeX": "LaTeX", "TeX": "TeX", "BibTeX": "BibTeX", "eg": "e.g.", "ie": "i.e.", "etal": "et al.",
    "etc": "etc.", "wrt": "w.r.t.", "vs": "vs.", "cf": "cf.", "aka": "a.k.a.", "iid": "i.i.d.",
    "log": "log", "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan", "max": "max",
    "min": "min", "sup": "sup", "inf": "inf", "arg": "arg", "argmax": "argmax", "argmin": "argmin",
    "lim": "lim", "det": "det", "Pr": "Pr", "dim": "dim", "ker": "ker", "tanh": "tanh",
    "softmax": "softmax", "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
    "aa": "å", "AA": "Å", "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "i": "ı",
}
_GREEK = (
    "alpha α beta β gamma γ delta δ epsilon ε varepsilon ε zeta ζ eta η theta θ vartheta ϑ iota ι "
    "kappa κ lambda λ mu μ nu ν xi ξ omicron ο pi π varpi ϖ rho ρ varrho ϱ sigma σ varsigma ς tau τ "
    "upsilon υ phi φ varphi φ chi χ psi ψ omega ω Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π "
    "Sigma Σ Upsilon Υ Phi Φ Psi Ψ Omega Ω"
).split()
_SYMBOLS.update(zip(_GREEK[::2], _GREEK[1::2]))
_ESCAPED = {"%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}", "|": "‖",
            ",": " ", ";": " ", ":": " ", ">": " ", " ": " ", "!": "", "-": "", "/": "", "\\": " ",
            "@": ""}
# Accent commands map to Unicode combining marks; NFC then composes é, ö, ç ...
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
            "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
            "c": "\u0327", "k": "\u0328", "r": "\u030a"}
# Bare macros that papers use for "our method"; their definition is usually not in the abstract.
_SELF_REFERENCE = frozenset(
    """
    ours our ourmethod ourmodel oursystem ourapproach method methodname model modelname name
    system sysname approach framework algname alg algo algorithm tool toolname ourname proposed
    """.split()
)
_OUR_METHOD = "our method"
_MAX_MACRO = 200  # longest macro expansion we keep

_TOKEN_RE = re.compile(r"\\[A-Za-z]+\*?|\\.|\\$|\$\$|[{}$^_~\[\]]|[^\\{}$^_~\[\]]+", re.S)


class _Renderer:
    """A forgiving recursive-descent reader over LaTeX tokens; unbalanced input simply ends."""

    def __init__(self, text: str, macros: dict[str, str]) -> None:
        self.toks = _TOKEN_RE.findall(text)
        self.pos = 0
        self.math = False
        self.macros = macros
        # A `$` with no partner later on is a currency sign, not a math delimiter.
        dollars = [i for i, t in enumerate(self.toks) if t in ("$", "$$")]
        self.lone_dollar = dollars[-1] if len(dollars) % 2 else -1

    def peek(self) -> str | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def next(self) -> str | None:
        tok = self.peek()
        self.pos += 1
        return tok

    def skip_space(self) -> None:
        while (tok := self.peek()) is not None and tok.isspace():
            self.pos += 1

    def group(self) -> str:
        """Render tokens up to the matching `}` (already past the `{`)."""
        return self.render(stop="}")

    def optional_arg(self) -> str | None:
        """Consume `[...]` if it comes next; return its rendering."""
        save = self.pos
        self.skip_space()
        if self.peek() != "[":
            self.pos = save
            return None
        self.pos += 1
        return self.render(stop="]")

    def arg(self, allow_space: bool = True) -> str | None:
        """Read one macro argument: a `{group}` or a single token; None if nothing follows."""
        save = self.pos
        if allow_space:
            self.skip_space()
        tok = self.peek()
        if tok == "{":
            self.pos += 1
            return self.group()
        if tok is None or tok in ("}", "]", "$", "$$") or (tok.isspace() and not allow_space):
            self.pos = save
            return None
        if tok.startswith("\\"):
            return self.render(limit=1)
        if allow_space:
            tok = tok.lstrip()
        # A plain text run: only its first character is the argument (TeX semantics);
        # the rest stays in place as the next token so positions never shift.
        if len(tok) > 1:
            self.toks[self.pos] = tok[1:]
        else:
            self.pos += 1
        return tok[:1]

    def raw_arg(self) -> str:
        """A `{...}` argument taken verbatim (URLs keep their ~ and %)."""
        self.skip_space()
        if self.peek() != "{":
            return self.arg() or ""
        self.pos += 1
        depth, out = 1, []
        while (tok := self.next()) is not None:
            depth += {"{": 1, "}": -1}.get(tok, 0)
            if depth == 0:
                break
            out.append(tok)
        return "".join(out)

    def render(self, stop: str | None = None, limit: int | None = None) -> str:
        out: list[str] = []
        count = 0
        while (tok := self.next()) is not None:
            if tok == stop:
                break
            out.append(self.token(tok))
            count += 1
            if limit is not None and count >= limit:
                break
        return "".join(out)

    def token(self, tok: str) -> str:
        if tok == "{":
            return self.group()
        if tok in ("}", "[", "]"):
            # Stray closers are dropped; brackets outside argument position are text.
            return tok if tok in "[]" else ""
        if tok in ("$", "$$"):
            if self.pos - 1 == self.lone_dollar:
                return "$"
            self.math = not self.math
            return " " if tok == "$$" else ""
        if tok == "~":
            return " "
        if tok in ("^", "_"):
            return self.script(tok) if self.math else tok
        if tok.startswith("\\"):
            return self.macro(tok)
        if self.math:
            # Inside math, spaces are not significant but word gaps still read better kept.
            return re.sub(r"\s+", " ", tok)
        return tok

    def script(self, kind: str) -> str:
        body = (self.arg() or "").strip()
        if not body:
            return ""
        if kind == "_" and body.isdigit():
            return body  # CO_2 -> CO2
        if kind == "^" and body in ("′", "″", "*", "∗", "†"):
            return body  # x^* -> x*
        if len(body) == 1 or re.fullmatch(r"[\w.′*+\-∗†]+", body) and not (len(body) > 1 and re.search(r"[+\-]", body[1:])):
            return kind + body
        return f"{kind}{_paren(body)}"

    def macro(self, tok: str) -> str:
        if tok == "\\":
            return ""
        if tok in ("\\(", "\\)", "\\[", "\\]"):
            self.math = tok in ("\\(", "\\[")
            return " "
        if len(tok) == 2 and not tok[1].isalpha():
            ch = tok[1]
            if ch in _ACCENTS:
                base = self.arg(allow_space=False) or ""
                return unicodedata.normalize("NFC", base[:1] + _ACCENTS[ch] + base[1:]) if base else ""
            return _ESCAPED.get(ch, ch)
        name = tok[1:].rstrip("*")
        if name in ("newcommand", "renewcommand", "providecommand", "def", "DeclareMathOperator"):
            self.definition(name)
            return ""
        if name in self.macros:
            self.empty_group()
            return self.macros[name]
        if name in ("begin", "end"):
            self.arg()
            return " "
        if name in _DROP_ARG:
            while self.optional_arg() is not None:
                pass
            self.arg()
            return ""
        if name in _VERBATIM_ARG:
            return self.raw_arg()
        if name in _SECOND_ARG:
            self.raw_arg()
            return self.arg() or ""
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            num, den = (self.arg() or "").strip(), (self.arg() or "").strip()
            return f"{_paren(num)}/{_paren(den)}"
        if name == "binom":
            top, bottom = (self.arg() or "").strip(), (self.arg() or "").strip()
            return f"C({top}, {bottom})"
        if name == "sqrt":
            self.optional_arg()
            body = (self.arg() or "").strip()
            return "√" + _paren(body)
        if name in _ACCENTS:  # letter accents: \c{c}, \v{s}, \u{a} ...
            base = self.arg() or ""
            return unicodedata.normalize("NFC", base[:1] + _ACCENTS[name] + base[1:]) if base else ""
        if name in _KEEP_ARG:
            if name == "textsuperscript":
                return "^" + (self.arg() or "")
            self.optional_arg()
            return self.arg() or ""
        if name in _SYMBOLS:
            self.empty_group()
            return _SYMBOLS[name]
        if name in _DROP_BARE:
            return ""
        if self.peek() == "{" and self.pos + 1 < len(self.toks) and self.toks[self.pos + 1] != "}":
            # Unknown macro applied to text, e.g. \methodfont{X}: keep the text.
            self.pos += 1
            return self.group()
        self.empty_group()
        return _bare_macro(name)

    def empty_group(self) -> None:
        """Skip a `{}` that authors put after a bare macro to keep the following space."""
        if self.peek() == "{" and self.pos + 1 < len(self.toks) and self.toks[self.pos + 1] == "}":
            self.pos += 2

    def definition(self, kind: str) -> None:
        """Read `\\newcommand{\\x}[n]{body}` / `\\def\\x{body}` and remember the macro."""
        self.skip_space()
        tok = self.next()
        if tok == "{":
            tok = self.next()
            self.skip_space()
            if self.peek() == "}":
                self.pos += 1
        if not tok or not tok.startswith("\\") or len(tok) < 2:
            return
        while self.optional_arg() is not None:
            pass
        body = self.arg()
        if body is not None and tok[1:].isalpha() and len(body) <= _MAX_MACRO:
            self.macros[tok[1:]] = body.strip()  # capped: \def\a{\a\a} chains must not explode


def _paren(body: str) -> str:
    if re.fullmatch(r"[\w.]+", body) or (body.startswith("(") and body.endswith(")")):
        return body
    return f"({body})"


def _bare_macro(name: str) -> str:
    """A macro we cannot resolve (defined outside the abstract): guess a readable word."""
    if name.lower() in _SELF_REFERENCE:
        return _OUR_METHOD
    lower = name.lower()
    for suffix, shown in (("bench", "Bench"), ("net", "Net"), ("data", "Data"), ("set", "Set")):
        if lower.endswith(suffix) and len(lower) > len(suffix):
            head = name[: -len(suffix)]
            head = head.upper() if len(head) <= 4 else head[:1].upper() + head[1:]
            return head + shown
    if name.islower() and len(name) <= 5:
        return name.upper()  # \lgrt after "Latent Graph Reasoning Transformer (" is an acronym
    return name


def _collect_definitions(text: str) -> dict[str, str]:
    """Pre-read macro definitions so uses before the definition resolve too."""
    macros: dict[str, str] = {}
    if "newcommand" in text or "\\def" in text or "providecommand" in text:
        _Renderer(text, macros).render()
    return macros


_MD_BOLD = re.compile(r"(\*\*)(?=\S)([^*\n]{1,300}?)(?<=\S)\1")
_MD_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]{1,300}?)(?<=[^\s*])\*(?![\w*])")
_MD_CODE = re.compile(r"`([^`\n]+)`")
_QUOTES = (("``", "“"), ("''", "”"))


def _postprocess(text: str) -> str:
    # Each rewrite is guarded by a cheap substring test: most abstracts need none of them.
    if "*" in text:
        text = _MD_BOLD.sub(r"\2", text)
        text = _MD_ITALIC.sub(r"\1", text)
    if "`" in text or "''" in text:
        for old, new in _QUOTES:
            text = text.replace(old, new)
        text = _MD_CODE.sub(r"\1", text)
    if "--" in text:
        text = re.sub(r"(?<!-)---(?!-)", "—", text)
        text = re.sub(r"(?<!-)--(?!-)", "–", text)
    text = " ".join(text.split())
    # Dropped citations leave "word ." behind.
    text = _SPACE_BEFORE.sub(r"\1", text)
    return _SPACE_AFTER.sub(r"\1", text)


_SPACE_BEFORE = re.compile(r" ([.,;:!?)\]])")
_SPACE_AFTER = re.compile(r"([(\[]) ")


def _fallback(text: str) -> str:
    """Last resort for input the reader could not handle: strip markup characters bluntly."""
    text = re.sub(r"\\[A-Za-z]+\*?", " ", text)
    text = re.sub(r"[\\{}$]", "", text)
    return re.sub(r"\s+", " ", text).strip()


def clean_latex(text: str) -> str:
    """Return ``text`` with LaTeX/Markdown markup resolved into plain, whitespace-collapsed text."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if not text.strip():
        return ""
    try:
        macros = _collect_definitions(text)
        rendered = _Renderer(text, macros).render()
        return _postprocess(unicodedata.normalize("NFC", rendered))
    except Exception:  # noqa: BLE001 - display text must never break ingestion
        return _fallback(text)
