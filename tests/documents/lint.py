"""The document lint (issue 18): what no issued document may print, as pure functions over its text and bytes.

tests/documents/test_document_lint.py renders every document type of every installed pack (the demo of both
cities, and a fixture city over the state pack for the state's documents, in English and in Spanish) and runs
each rule below on each PDF; tests/documents/test_lint_checker.py shows each rule failing on a small bad text.
The text is the PDF's as Debian's pdftotext reads it (`-raw`: the page's flow in reading order, each page's
floated citations at its top, each page's footer at its bottom); the Spanish rule also reads the HTML the PDF was
rendered from.

The rules, each a function returning its findings (an excerpt of the text around what it found):

- ``doubled-word``: a word printed twice in a row ("the the"), case aside, across line and page breaks (the
  page footers are taken out first, so the last word of a page and the first of the next are neighbours). Not
  a heading's last word followed by the first word of its statement ("The case" / "Case BL-2026-0006: …"),
  nor a word doubled inside a value a person typed (a breed: "Chow chow").
- ``double-period``: two full stops in a row, with or without a space between (a value that ends in a full stop
  put before the template's own), not an ellipsis of three.
- ``engine-identifier``: an identifier of the engine, which a reader never needs: any snake_case word
  (`serve_notice`, `owner.request_hearing`, `potentially_dangerous`, a YAML key such as `issued_by`), and any
  identifier of the packs given to the rule that has a dot or a dash in it (a deadline id, a source name such
  as `dog.description`, a provision id such as `H.filing`, a pack id such as `tracy-mn`). Web addresses and
  e-mail addresses are read past. An identifier that is one plain English word (`dangerous`, `seize`) cannot be
  told from the word and is not looked for.
- ``unfilled-placeholder``: what a template leaves when it is not filled: `{name}` or `{{ name }}`, a gettext
  `%(name)s` or `%s`, the draft's marker of a missing value (`[what is missing]`, square brackets), the draft's
  "(printed here when the notice is issued)", Python's `None` inside a sentence, TODO/TBD/FIXME/XXX.
  Underscores a form leaves for the owner to write on (`Date: ________`) are not placeholders.
- ``relative-url``: an address that starts with `/` (`/verify/CODE`, `/owner/`), or a scheme with no host
  (`https:///x`): on paper it leads nowhere. Page footers are read too: that is where `/verify/CODE` is printed.
- ``optional-on-required``: "(optional)", "(opcional)" or "(you may leave this blank)" printed in a statement
  that carries a required element of the document (an element of the notices it must contain, or of its own
  elements). The caller gives the printed headings of the document's statements and whether each carries a
  required element; the marker belongs to the statement whose heading is the last one printed before it.
- ``english-in-spanish`` (documents in Spanish only): English that dogcase prints for a Spanish reader outside
  the legal instrument. The reading it checks (issue 18, documents item 14; docs/owners.md): the legal instrument
  stays English — the English text is the one that counts — and is marked lang="en" in the HTML the PDF is
  rendered from (the title and header lines, the pack's statements and their headings, the English lines of
  "What happens next"), with the Spanish explanation beside it; everything else dogcase prints for the reader
  is Spanish (the block "Your case online" and its QR code's caption, the calendar note, the page footer).
  The rule reads the document's HTML (dogcase.documents.render.render_html, for the draft the PDF came from):
  the text of every element whose language is not English (its own lang attribute, or its nearest ancestor's)
  is cut into sentences — a new block at each block element (a paragraph, a heading, a cell, a line break) and
  wherever English-marked text stands between, then each block at `.`, `!`, `?` or `;` followed by a space (not
  after an abbreviation such as "Minn. Stat." or "a.m.") — and each sentence is judged. A passage in quotation
  marks is judged on its own: it may be English when it quotes the instrument (its words are printed in the
  document's English-marked text, such as the English title beside its Spanish) or the law (the provisions'
  `text` in the packs). Before a sentence is judged, the values that people typed into the case records
  (names, addresses, the narrative, the reasons: what dogcase cannot translate), proper names (the city's and
  its offices' names), citations, numbers and URLs are taken out of it. What is left is judged by counting
  common words of each language (function words, the documents' own nouns such as dog/perro and
  hearing/audiencia, the names of days and months): it is English when it has at least two English words and
  more English words than Spanish ones, or at least one English word, no Spanish word and two words or more. A
  heading of one English word ("To") is too short to judge.
  Beside that, in the same document: dogcase's own words printed in English anywhere, even marked English (the
  wording of "Your case online", dogcase's or a pack's: it says itself it is not part of the legal notice); an
  English heading (`h2`) or line of "What happens next" with no Spanish beside it, and a Spanish text that
  says something was left in English (the catalogue's own words for that, and an element of the class
  `untranslated`): each consequence and statement is explained beside its English. And, read in the PDF's text
  (the footer is the stylesheet's generated content, in no element of the HTML): a page footer in English
  ("No. … · version N · page N of M", "Verification code …"), or no page footer in Spanish.
- ``missing-glyph``: a character of the text that no font embedded in the PDF draws. Each embedded font maps
  its character codes to glyphs (its Encoding and CIDToGIDMap) and to Unicode (its ToUnicode map); a character
  printed with glyph 0 (.notdef, the empty box a font draws for a character it does not have) is missing, and
  so is a character of the text that no font maps at all, and U+FFFD (a character lost before rendering).
  Spaces and invisible format characters (the bidirectional marks pdftotext adds around Arabic) are not drawn
  and not looked for. A glyph that a colour font draws as an image (an emoji in Noto Color Emoji) is drawn.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# ------------------------------------------------------------------------------------------------ findings

RULES = (
    "doubled-word",
    "double-period",
    "engine-identifier",
    "unfilled-placeholder",
    "relative-url",
    "optional-on-required",
    "english-in-spanish",
    "missing-glyph",
)


@dataclass(frozen=True)
class Finding:
    rule: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.excerpt}"


def excerpt(text: str, start: int, end: int, around: int = 30) -> str:
    """The found text with a little of what surrounds it, on one line."""
    left = max(0, start - around)
    right = min(len(text), end + around)
    out = " ".join(text[left:right].split())
    return ("…" if left else "") + out + ("…" if right < len(text) else "")


def _unique(findings: Iterable[Finding]) -> list[Finding]:
    return list(dict.fromkeys(findings))


# ------------------------------------------------------------------------------------------------ footers

# the page footer of a document in English, and of one in Spanish
FOOTER_NUMBER_EN = r"No\. \S+ · version \d+ · page \d+ of \d+"
FOOTER_NUMBER_ES = r"No\. \S+ · versión \d+ · página \d+ de \d+"
FOOTER_CODE_EN = r"Verification code \w+ — \S*/verify/\w+"
FOOTER_CODE_ES = r"Código de verificación \w+ — \S*/verify/\w+"
FOOTER_NUMBER = re.compile(f"{FOOTER_NUMBER_EN}|{FOOTER_NUMBER_ES}")
FOOTER_CODE = re.compile(f"{FOOTER_CODE_EN}|{FOOTER_CODE_ES}")


def footers(text: str) -> list[str]:
    """Each distinct page footer of the text (the page number taken out)."""
    found = [
        re.sub(r"(page|página) \d+ (of|de) \d+", r"\1 N \2 N", m.group())
        for m in FOOTER_NUMBER.finditer(text)
    ]
    found += [m.group() for m in FOOTER_CODE.finditer(text)]
    return list(dict.fromkeys(found))


def without_footers(text: str) -> str:
    """The text without its page footers: a sentence cut by a page break is whole again."""
    return FOOTER_CODE.sub(" ", FOOTER_NUMBER.sub(" ", text))


# ------------------------------------------------------------------------------------------------ the rules

WORD = r"[^\W\d_]+"
DOUBLED = re.compile(rf"(?<![\w'’-])({WORD})\s+(\1)(?![\w'’-])", re.IGNORECASE)


def doubled_words(text: str, *, headings: Iterable[str] = (), typed: Iterable[str] = ()) -> list[Finding]:
    """A word printed twice in a row. Not a heading's last word and the first word of its statement (a heading
    is a line of its own), nor a word doubled inside a value a person typed (a breed: "Chow Chow")."""
    text = without_footers(text)
    heads = {" ".join(h.split()).lower() for h in headings if h.strip()}
    values = [m.span() for v in typed if v.strip() for m in re.finditer(_spaced(v), text, re.IGNORECASE)]
    out = []
    for m in DOUBLED.finditer(text):
        line_start = text.rfind("\n", 0, m.start(1)) + 1
        gap = text[m.end(1) : m.start(2)]
        if "\n" in gap and " ".join(text[line_start : m.end(1)].split()).lower() in heads:
            continue
        if any(a <= m.start() and m.end() <= b for a, b in values):
            continue
        out.append(Finding("doubled-word", excerpt(text, m.start(), m.end())))
    return _unique(out)


def _spaced(value: str) -> str:
    """A pattern for a value as printed: its words, whatever space or line break between them."""
    return r"(?<!\w)" + r"\s+".join(re.escape(p) for p in value.split()) + r"(?!\w)"


DOUBLE_PERIOD = re.compile(r"(?<!\.)\.[ \t]*\.(?!\.)")


def double_periods(text: str) -> list[Finding]:
    text = without_footers(text)
    return _unique(
        Finding("double-period", excerpt(text, m.start(), m.end())) for m in DOUBLE_PERIOD.finditer(text)
    )


URL = re.compile(r"\b(?:https?|ftp)://\S*|\bwww\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
SNAKE = re.compile(r"(?<![\w@])[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*(?:_[A-Za-z0-9]+)+(?:\.[A-Za-z0-9_]+)*")


def engine_identifiers(text: str, known: Iterable[str] = ()) -> list[Finding]:
    """snake_case words, and the `known` identifiers that have a dot or a dash (`owner.request_hearing`,
    `dog.description`, `tracy-mn`); web and e-mail addresses read past. Underscores a form leaves blank are
    not words."""
    text = URL.sub(lambda m: " " * len(m.group()), text)
    found = []
    for m in SNAKE.finditer(text):
        if re.fullmatch(r"[_\W]+", m.group()):
            continue
        found.append((m.start(), m.end()))
    marked = sorted({k for k in known if re.search(r"[.\-_]", k) and not re.fullmatch(r"[\d.]+", k)})
    if marked:
        pattern = re.compile(
            r"(?<![\w.\-])(?:"
            + "|".join(re.escape(k) for k in sorted(marked, key=len, reverse=True))
            + r")(?![\w\-]|\.\w)"
        )
        found += [(m.start(), m.end()) for m in pattern.finditer(text)]
    return _unique(
        Finding("engine-identifier", f"{text[a:b]!r} in {excerpt(text, a, b)}") for a, b in sorted(found)
    )


PLACEHOLDERS = (
    re.compile(r"\{\{?[^{}\n]{0,80}\}?\}"),  # a template's {source} or {{ variable }}
    re.compile(r"%\(\w+\)[sdrf]|(?<![\w%])%[sd](?!\w)"),  # gettext
    re.compile(r"\[[^\[\]\n]{2,200}\]"),  # the draft's [what is missing]
    re.compile(r"\(printed here when the notice is issued\)"),
    re.compile(r"(?<=[a-z,] )None\b"),  # Python's None inside a sentence (not "None of the conditions")
    re.compile(r"\b(?:TODO|TBD|FIXME|XXX)\b"),
)


def unfilled_placeholders(text: str) -> list[Finding]:
    text = without_footers(text)
    found = sorted((m.start(), m.end()) for p in PLACEHOLDERS for m in p.finditer(text))
    return _unique(Finding("unfilled-placeholder", excerpt(text, a, b)) for a, b in found)


RELATIVE_URL = re.compile(
    r"(?:(?<=\s)|(?<=^)|(?<=[(\[“\"'«:]))/{1,2}[A-Za-z0-9][\w.~%-]*(?:/[^\s)\]”\"'»,;]*)?"
    r"|\b(?:https?|ftp):/{0,3}(?=/|[^/\w])\S*",
    re.MULTILINE,
)


def relative_urls(text: str) -> list[Finding]:
    """Read on the whole text, footers included."""
    out = []
    for m in RELATIVE_URL.finditer(text):
        token = m.group()
        if token.startswith(("http", "ftp")) and re.match(r"\w+://[^/\s]", token):
            continue  # an absolute address with its host
        before = " ".join(text[max(0, m.start() - 60) : m.start()].split()[-3:])
        out.append(Finding("relative-url", f"{token!r} after “…{before}”"))
    return _unique(out)


OPTIONAL = re.compile(
    r"\((?:optional|opcional|you may leave (?:this|it) blank|puede dejarlo en blanco)\)", re.IGNORECASE
)


def _squeezed(text: str) -> tuple[str, list[int]]:
    """The text without whitespace, and the index in the text of each character kept."""
    kept = [(i, c) for i, c in enumerate(text) if not c.isspace()]
    return "".join(c for _, c in kept), [i for i, _ in kept]


def optional_on_required(text: str, statements: Sequence[tuple[str, bool]]) -> list[Finding]:
    """`statements`: (the printed heading, whether the statement carries a required element), in the order
    printed. A marker of "optional" belongs to the statement whose heading is printed last before it (the
    heading itself included); a marker before any heading belongs to none."""
    text = without_footers(text)
    flat, where = _squeezed(text)
    starts: list[tuple[int, str, bool]] = []  # (index in text, heading, required)
    pos = 0
    for heading, required in statements:
        key = re.sub(r"\s+", "", heading)
        if not key:
            continue
        i = flat.find(key, pos)
        if i < 0:
            continue  # not printed (a statement whose condition does not hold)
        starts.append((where[i], heading, required))
        pos = i + len(key)
    out = []
    for m in OPTIONAL.finditer(text):
        owner = None
        for start, heading, required in starts:
            if start <= m.start():
                owner = (heading, required)
        if owner and owner[1]:
            out.append(
                Finding(
                    "optional-on-required",
                    f"{m.group()} in the statement “{owner[0]}”: {excerpt(text, m.start(), m.end())}",
                )
            )
    return _unique(out)


# ------------------------------------------------------------------------------------------------ Spanish

DAYS_EN = "monday tuesday wednesday thursday friday saturday sunday".split()
MONTHS_EN = "january february march april june july august september october november december".split()
ENGLISH = (
    frozenset(
        """the and of to you your yours is are was were be been being has have had must may will would shall can
    could should for this that these those with if or not nor by it its from at on in an who whom whose which
    what when where how why do does did any each every after before within under until than then there their
    they them we our us she his her him my i also only but because about into upon
    dog dogs hearing notice owner owners city date days day request decision signature name telephone issued
    version page verification code case law laws online form mail declared declaration appeal""".split()
    )
    | frozenset(DAYS_EN)
    | frozenset(MONTHS_EN)
)
DAYS_ES = "lunes martes miércoles jueves viernes sábado domingo".split()
MONTHS_ES = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split()
SPANISH = (
    frozenset(
        """el la los las lo le les de del al y e que en un una unos unas su sus usted ustedes por para con sin se es
    son está están fue ser estar este esta estos estas ese esa eso esto si sí o u pero como cuando donde qué
    cuándo cómo dónde ha han hay debe deben puede pueden desde hasta sobre entre ante antes después más también
    muy ya ni cada según porque
    perro perros audiencia aviso dueño dueña dueños ciudad fecha días día solicitud decisión firma nombre
    teléfono página versión código caso ley leyes formulario correo declarado declarada declaración
    apelación""".split()
    )
    | frozenset(DAYS_ES)
    | frozenset(MONTHS_ES)
)

CITATION = re.compile(
    r"(?:Minn\.\s*Stat\.\s*)?§+\s*[\d.]+(?:\s*\([\w.]+\))*(?:,\s*subd\.\s*[\w.]+(?:\s*\([\w.]+\))*)?"
    r"|Minn\.\s*Stat\.\s*(?:§\s*)?[\d.]+(?:,\s*subds?\.\s*[\w.]+(?:\s*\([\w.]+\))*)?"
    r"|\bSubd\.?\s*\d+(?:\.[A-Z])?(?:\s*\([\w.]+\))*"
)
QUOTED = re.compile(r"“([^”]*)”|\"([^\"]*)\"|«([^»]*)»")


def words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", text.lower())


def _norm(text: str) -> str:
    """Words only, lower case, one space between: how a passage is compared with the law's text."""
    return " ".join(words(text))


def is_english(text: str) -> bool:
    ws = words(text)
    en = sum(1 for w in ws if w in ENGLISH or w.endswith(("'s", "’s")))
    es = sum(1 for w in ws if w in SPANISH)
    return (en >= 2 and en > es) or (en >= 1 and es == 0 and len(ws) >= 2)


def _erase(text: str, values: Iterable[str]) -> str:
    """The text with each value blotted out wherever it is printed (its line breaks wherever they fall), each
    of its characters replaced by one that is no letter and no punctuation, so that places in the text stay."""
    for value in sorted({v.strip() for v in values if v and v.strip()}, key=len, reverse=True):
        text = re.sub(_spaced(value), lambda m: re.sub(r"\S", "_", m.group()), text, flags=re.IGNORECASE)
    return text


# a full stop after these does not end a sentence
ABBREVIATIONS = frozenset(
    "no núm stat minn subd subds a.m p.m e.g i.e dr st ave mr mrs ms sr sra art".split()
)


def sentences(text: str) -> list[tuple[int, int]]:
    """Where each sentence of the text starts and ends: blocks first (an empty line; a line not ending in
    punctuation followed by one starting with a capital), then sentences (`.`, `!`, `?`, `;` and a space)."""
    spans: list[tuple[int, int]] = []
    block_start = None
    previous = ""
    pos = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        starts_block = not stripped or (
            previous
            and not re.search(r"[,;:(\-–—/]$|\b(?:a|an|the|of|to|and|or|de|la|el|y|o)$", previous)
            and (stripped[0].isupper() or stripped[0] in "¿¡•–-")
        )
        if starts_block and block_start is not None:
            spans.append((block_start, pos))
            block_start = None
        if stripped and block_start is None:
            block_start = pos
        previous = stripped
        pos += len(line)
    if block_start is not None:
        spans.append((block_start, pos))
    out = []
    for start, end in spans:
        cut = start
        for m in re.finditer(r"(?<=[.!?;])\s+", text[start:end]):
            before = re.search(r"([\w.]+)\.$", text[cut : start + m.start()])
            if before and before.group(1).lower() in ABBREVIATIONS:
                continue
            out.append((cut, start + m.start()))
            cut = start + m.end()
        out.append((cut, end))
    return [(a, b) for a, b in out if text[a:b].strip()]


# ---------------------------------------------------------------------------------------------- the HTML

VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
BLOCKS = frozenset(
    """address article aside blockquote body br caption dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6
    header hr li main nav ol p pre section table tbody td tfoot th thead tr ul""".split()
)
NOT_PRINTED = frozenset("head script style svg template title".split())


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    lang: str  # its own lang attribute, or its nearest ancestor's ("" when none says)
    children: list[Element | str]

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        """Its printed text, on one line."""
        parts = [
            c if isinstance(c, str) else "" if c.tag in NOT_PRINTED else f" {c.text()} "
            for c in self.children
        ]
        return " ".join("".join(parts).split())

    def iter(self) -> Iterable[Element]:
        yield self
        for c in self.children:
            if isinstance(c, Element):
                yield from c.iter()


def parse_html(html: str) -> Element:
    """The document's elements (Python's html.parser: enough for the HTML dogcase renders)."""
    from html.parser import HTMLParser

    root = Element("#document", {}, "", [])

    class Parser(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.stack = [root]

        def handle_starttag(self, tag, attrs) -> None:
            parent = self.stack[-1]
            given = dict((k, v or "") for k, v in attrs)
            element = Element(tag, given, given.get("lang", parent.lang).lower(), [])
            parent.children.append(element)
            if tag not in VOID:
                self.stack.append(element)

        def handle_startendtag(self, tag, attrs) -> None:
            self.handle_starttag(tag, attrs)
            if tag not in VOID:
                self.stack.pop()

        def handle_endtag(self, tag) -> None:
            for i in range(len(self.stack) - 1, 0, -1):
                if self.stack[i].tag == tag:
                    del self.stack[i:]
                    return

        def handle_data(self, data) -> None:
            self.stack[-1].children.append(data)

    parser = Parser()
    parser.feed(html)
    parser.close()
    return root


def is_english_lang(lang: str) -> bool:
    return lang == "en" or lang.startswith("en-")


@dataclass(frozen=True)
class Reading:
    """A document's printed text, by language: `outside`, the text of the elements not marked English (blocks
    apart at empty lines, English-marked text standing between as a break); `english`, the English-marked."""

    outside: str
    english: str


def reading(html: str) -> Reading:
    outside: list[str] = []
    english: list[str] = []

    def walk(node: Element) -> None:
        if node.tag in NOT_PRINTED:
            return
        block = node.tag in BLOCKS
        if block:
            outside.append("\n\n")
        for child in node.children:
            if isinstance(child, Element):
                walk(child)
            elif is_english_lang(node.lang):
                english.append(child)
                outside.append("\n\n")
            else:
                outside.append(re.sub(r"\s+", " ", child))
        if block:
            outside.append("\n\n")

    walk(parse_html(html))
    text = re.sub(r"[ \t]*\n\s*\n[ \t]*", "\n\n", "".join(outside))
    return Reading(text.strip("\n"), " ".join(" ".join(english).split()))


def english_outside_english(
    html: str,
    *,
    law: Iterable[str] = (),
    typed: Iterable[str] = (),
    names: Iterable[str] = (),
) -> list[Finding]:
    """The English sentences of a document in Spanish, outside the elements marked English. `law`: the law's
    text (the provisions' words), which a passage in quotation marks may quote, as it may quote the document's
    English-marked text; `typed`: the values people typed into the case's records; `names`: proper names."""
    read = reading(html)
    quotable = " " + " ".join(_norm(t) for t in [*law, read.english]) + " "

    def quoted_from_the_instrument(passage: str) -> bool:
        n = _norm(passage)
        return len(n.split()) >= 2 and f" {n} " in quotable

    body = read.outside
    blotted = RELATIVE_URL.sub(lambda m: "_" * len(m.group()), URL.sub(lambda m: "_" * len(m.group()), body))
    blotted = _erase(blotted, [*typed, *names])
    out = []
    for start, end in sentences(blotted):
        sentence = blotted[start:end]
        # a passage in quotation marks is judged on its own: the instrument's and the law's words may be English
        for m in QUOTED.finditer(sentence):
            quoted = next(g for g in m.groups() if g is not None)
            as_printed = body[start + m.start() : start + m.end()]  # names and typed values in it
            if not quoted_from_the_instrument(as_printed) and is_english(CITATION.sub(" ", quoted)):
                out.append(Finding("english-in-spanish", " ".join(as_printed.split())[:160]))
        if is_english(CITATION.sub(" ", QUOTED.sub(" ", sentence))):
            out.append(Finding("english-in-spanish", " ".join(body[start:end].split())[:160]))
    return _unique(out)


def english_own_words(html: str, own: Iterable[str]) -> list[Finding]:
    """dogcase's own words around the instrument (`own`: their English wording, with `{sources}` where a value
    is printed) printed in English anywhere in the document, marked English or not: each run of four words or
    more between the sources is looked for."""
    printed = " " + _norm(parse_html(html).text()) + " "
    out = []
    for wording in own:
        for piece in re.split(r"\{[^{}]*\}", wording):
            n = _norm(piece)
            if len(n.split()) >= 4 and f" {n} " in printed:
                shown = " ".join(piece.split()).strip(" .,;:")
                out.append(Finding("english-in-spanish", f"(dogcase's words, in English) {shown}"))
    return _unique(out)


def unexplained(html: str, untranslated: Iterable[str] = ()) -> list[Finding]:
    """What is printed in English with nothing in Spanish beside it: an English-marked heading (`h2`: a
    statement's, the box's) or line of "What happens next" (class `next-step`) with no text in another
    language inside; and Spanish that says something was left in English (`untranslated`: the catalogue's words
    for it; an element of the class `untranslated`)."""
    root = parse_html(html)
    out = []

    def beside(element: Element) -> bool:
        return any(
            not is_english_lang(e.lang) and e.text().strip() for e in element.iter() if e is not element
        )

    for element in root.iter():
        if not is_english_lang(element.lang):
            if "untranslated" in element.classes:
                out.append(Finding("english-in-spanish", f"(left in English) {element.text()[:160]}"))
            continue
        if element.tag == "h2" and not beside(element):
            out.append(
                Finding("english-in-spanish", f"(no Spanish beside the heading) {element.text()[:160]}")
            )
        elif "next-step" in element.classes and not beside(element):
            out.append(Finding("english-in-spanish", f"(no Spanish beside the line) {element.text()[:160]}"))
    outside = " ".join(reading(html).outside.split())
    for phrase in untranslated:
        if phrase and phrase in outside:
            out.append(Finding("english-in-spanish", f"(left in English) {phrase}"))
    return _unique(out)


def english_footers(text: str) -> list[Finding]:
    """The page footers of a document in Spanish that are English, read in the PDF's text (the footer is the
    stylesheet's generated content); a document with no page footer in Spanish at all is reported too."""
    english = re.compile(f"{FOOTER_NUMBER_EN}|{FOOTER_CODE_EN}")
    out = [
        Finding("english-in-spanish", f"(page footer) {re.sub(r'page \d+ of \d+', 'page N of N', m.group())}")
        for m in english.finditer(text)
    ]
    if not re.search(FOOTER_NUMBER_ES, text) or not re.search(FOOTER_CODE_ES, text):
        out.append(Finding("english-in-spanish", "(page footer) no page footer in Spanish"))
    return _unique(out)


def english_in_spanish(
    html: str,
    text: str,
    *,
    law: Iterable[str] = (),
    typed: Iterable[str] = (),
    names: Iterable[str] = (),
    own: Iterable[str] = (),
    untranslated: Iterable[str] = (),
) -> list[Finding]:
    """The rule, on a document in Spanish: its HTML and its PDF's text."""
    return _unique(
        [
            *english_outside_english(html, law=law, typed=typed, names=names),
            *english_own_words(html, own),
            *unexplained(html, untranslated),
            *english_footers(text),
        ]
    )


# ------------------------------------------------------------------------------------------------ glyphs

_OBJ = re.compile(rb"(\d+)\s+\d+\s+obj\b")


def pdf_objects(data: bytes) -> dict[int, tuple[bytes, bytes | None]]:
    """Each object of a PDF: (its dictionary, its stream decoded, or None). Enough of PDF for the fonts of the
    PDFs WeasyPrint writes (streams Flate-encoded; dictionaries also inside object streams)."""
    out: dict[int, tuple[bytes, bytes | None]] = {}
    for m in _OBJ.finditer(data):
        end = data.find(b"endobj", m.end())
        body = data[m.end() : end if end >= 0 else len(data)]
        s = re.search(rb"stream\r?\n", body)
        if s is None or not body[: s.start()].rstrip().endswith(b">>"):
            out.setdefault(int(m.group(1)), (body, None))
            continue
        head = body[: s.start()]
        raw = body[s.end() :]
        stop = raw.rfind(b"endstream")
        raw = raw[:stop] if stop >= 0 else raw
        if b"/FlateDecode" in head:
            raw = zlib.decompressobj().decompress(raw)
        out[int(m.group(1))] = (head, raw)
    for head, raw in list(out.values()):
        if raw is None or b"/ObjStm" not in head:
            continue
        first = int(re.search(rb"/First\s+(\d+)", head).group(1))
        numbers = [int(n) for n in raw[:first].split()]
        pairs = list(zip(numbers[::2], numbers[1::2], strict=True))
        for i, (number, offset) in enumerate(pairs):
            stop = pairs[i + 1][1] if i + 1 < len(pairs) else len(raw) - first
            out.setdefault(number, (raw[first + offset : first + stop], None))
    return out


def _ref(head: bytes, key: bytes) -> int | None:
    m = re.search(rb"/" + key + rb"\s*\[?\s*(\d+)\s+\d+\s+R", head)
    return int(m.group(1)) if m else None


def _hex_text(hexdigits: bytes) -> str:
    raw = bytes.fromhex(hexdigits.decode())
    return raw.decode("utf-16-be", errors="replace")


def to_unicode(cmap: bytes) -> dict[int, str]:
    """A ToUnicode CMap: character code -> text."""
    out: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", cmap, re.S):
        for code, text in re.findall(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>", block):
            out[int(code, 16)] = _hex_text(text)
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", cmap, re.S):
        for lo, hi, rest in re.findall(
            rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]*>|\[[^\]]*\])", block
        ):
            lo_i, hi_i = int(lo, 16), int(hi, 16)
            if rest.startswith(b"["):
                for i, text in enumerate(re.findall(rb"<([0-9a-fA-F]*)>", rest)):
                    out[lo_i + i] = _hex_text(text)
            else:
                start = bytes.fromhex(rest[1:-1].decode())
                for i in range(hi_i - lo_i + 1):
                    value = int.from_bytes(start, "big") + i
                    out[lo_i + i] = value.to_bytes(len(start), "big").decode("utf-16-be", errors="replace")
    return out


def to_cid(cmap: bytes) -> dict[int, int]:
    """An Encoding CMap: character code -> CID (codes not listed are read as their own CID)."""
    out: dict[int, int] = {}
    for block in re.findall(rb"begincidchar(.*?)endcidchar", cmap, re.S):
        for code, cid in re.findall(rb"<([0-9a-fA-F]+)>\s*(\d+)", block):
            out[int(code, 16)] = int(cid)
    for block in re.findall(rb"begincidrange(.*?)endcidrange", cmap, re.S):
        for lo, hi, cid in re.findall(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\d+)", block):
            for i in range(int(hi, 16) - int(lo, 16) + 1):
                out[int(lo, 16) + i] = int(cid) + i
    return out


@dataclass(frozen=True)
class FontUse:
    name: str
    drawn: frozenset[str]  # characters printed with a glyph of the font
    notdef: frozenset[str]  # characters printed with its glyph 0 (.notdef)


def fonts_of(pdf: bytes) -> list[FontUse]:
    """Each font of the PDF: the characters it prints with a real glyph and those it prints with .notdef."""
    objects = pdf_objects(pdf)
    out = []
    for head, _stream in objects.values():
        if not re.search(rb"/Type\s*/Font\b", head) or re.search(rb"/Subtype\s*/CIDFontType", head):
            continue
        name_m = re.search(rb"/BaseFont\s*/([^\s/<>\[\]()]+)", head)
        name = name_m.group(1).decode("latin-1") if name_m else "?"
        unicode_ref = _ref(head, b"ToUnicode")
        codes = to_unicode(objects[unicode_ref][1] or b"") if unicode_ref in objects else {}
        cid_of: dict[int, int] = {}
        gid_of: dict[int, int] | None = None  # None: CIDToGIDMap /Identity
        if re.search(rb"/Subtype\s*/Type0", head):
            encoding_ref = _ref(head, b"Encoding")
            if encoding_ref in objects:
                cid_of = to_cid(objects[encoding_ref][1] or b"")
            descendant = _ref(head, b"DescendantFonts")
            if descendant in objects:
                cid_head = objects[descendant][0]
                map_ref = _ref(cid_head, b"CIDToGIDMap")
                if map_ref in objects and objects[map_ref][1]:
                    table = objects[map_ref][1]
                    gid_of = {
                        i // 2: int.from_bytes(table[i : i + 2], "big") for i in range(0, len(table), 2)
                    }
        drawn: set[str] = set()
        notdef: set[str] = set()
        for code, text in codes.items():
            cid = cid_of.get(code, code)
            gid = cid if gid_of is None else gid_of.get(cid, 0)
            (notdef if gid == 0 else drawn).update(text)
        out.append(FontUse(name, frozenset(drawn), frozenset(notdef)))
    return out


def _printed(c: str) -> bool:
    return not c.isspace() and unicodedata.category(c) not in ("Zs", "Zl", "Zp", "Cc", "Cf")


def missing_glyphs(pdf: bytes, text: str) -> list[Finding]:
    """The characters of `text` (the PDF's text) that no embedded font draws."""
    fonts = fonts_of(pdf)
    drawn = set().union(*(f.drawn for f in fonts)) if fonts else set()
    out = []
    for f in fonts:
        for c in sorted(f.notdef):
            if _printed(c):
                out.append(Finding("missing-glyph", f"{c!r} (U+{ord(c):04X}) printed as .notdef by {f.name}"))
    if "\ufffd" in text:
        out.append(Finding("missing-glyph", "U+FFFD (a character lost before rendering) in the text"))
    for c in sorted({c for c in text if _printed(c) and c != "\ufffd"} - drawn):
        if not any(c in f.notdef for f in fonts):
            out.append(Finding("missing-glyph", f"{c!r} (U+{ord(c):04X}) in the text, drawn by no font"))
    return _unique(out)
