"""A user at the pages, for the walkthrough tests: read a page, find one of its forms, fill
it as a person would (what the page shows already, plus what they type or tick), send it,
follow the redirects, and read the page they land on."""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.conf import settings
from django.test import Client

from tests.test_system_words import FOREIGN, KOLAPS, RAPID40K, _text

# What each system's pages must not say: the other systems' words (Of the Dead's own words
# are foreign to every other system; KOLAPS's and Rapid 40000's to Of the Dead).
FOREIGN_WORDS = {**FOREIGN, "of-the-dead": KOLAPS + RAPID40K}


@dataclass
class Form:
    attrs: dict
    # (name, value, kind): kind is the input's type, "select", "textarea" or "button".
    fields: list = field(default_factory=list)
    # select name -> its options' values
    options: dict = field(default_factory=dict)


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.select_first: str | None = None
        self.select_chosen = False
        self.textarea: list | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.form = Form(attrs=a)
            self.forms.append(self.form)
            return
        if self.form is None:
            return
        name = a.get("name")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.form.fields.append((name, a.get("value", "on"), kind))
                self.form.options.setdefault(name, []).append(a.get("value", "on"))
            elif kind in ("submit", "image", "button", "reset"):
                self.form.options.setdefault(name, []).append(a.get("value", ""))
            else:
                self.form.fields.append((name, a.get("value", ""), kind))
        elif tag == "button" and name:
            self.form.options.setdefault(name, []).append(a.get("value", ""))
        elif tag == "select" and name and "disabled" not in a:
            self.select, self.select_first, self.select_chosen = name, None, False
            self.form.options[name] = []
        elif tag == "option" and self.select:
            value = a.get("value", "")
            self.form.options[self.select].append(value)
            if self.select_first is None:
                self.select_first = value
            if "selected" in a:
                self.form.fields.append((self.select, value, "select"))
                self.select_chosen = True
        elif tag == "textarea" and name:
            self.textarea = [name, ""]

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select" and self.select:
            if not self.select_chosen and self.select_first is not None and self.form:
                self.form.fields.append((self.select, self.select_first, "select"))
            self.select = None
        elif tag == "textarea" and self.textarea and self.form:
            self.form.fields.append((self.textarea[0], self.textarea[1].lstrip("\n"), "textarea"))
            self.textarea = None

    def handle_data(self, data):
        if self.textarea is not None:
            self.textarea[1] += data


def forms_of(html: str) -> list[Form]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


# The forms of the site's header, on every page.
SITE_FORMS = ("/accounts/logout/", "/theme/", "/i18n/setlang/")


class Visit:
    """One person with a browser: a client, a language, what the last page showed."""

    def __init__(self, player, system: str, language: str = "en"):
        self.client = Client()
        self.client.force_login(player)
        self.client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        self.player = player
        self.system = system
        self.words = re.compile(r"\b(" + "|".join(FOREIGN_WORDS[system]) + r")\b", re.IGNORECASE)
        self.url = ""
        self.html = ""
        self.visited: list[str] = []

    def _read(self, response) -> str:
        assert response.status_code == 200, (
            response.status_code,
            response.request["PATH_INFO"],
            response.content.decode()[:3000],
        )
        self.url = response.request["PATH_INFO"]
        self.html = response.content.decode()
        query = response.request.get("QUERY_STRING", "")
        self.visited.append(self.url + (f"?{query}" if query else ""))
        foreign = sorted({m.group(0) for m in self.words.finditer(_text(self.html))})
        if self.system == "kolaps" and self.url.startswith("/table/"):
            # KOLAPS's own word at its table: "+ 1 per figure beyond the first when shooting
            # into a melee" (RULES-NOTES, K18's shot into a melee).
            foreign = [word for word in foreign if not word.lower().startswith("figure")]
        assert foreign == [], (self.system, self.url, foreign)
        return self.html

    def again_in(self, language: str) -> None:
        """Every page this person read, read again in `language`: each still answers 200 and
        speaks its own system's words only."""
        self.client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for url in dict.fromkeys(self.visited[:]):
            self._read(self.client.get(url, follow=True))

    def get(self, url: str) -> str:
        return self._read(self.client.get(url, follow=True))

    def text(self) -> str:
        return _text(self.html)

    def form(self, match: str = "", button: tuple = (), has: dict | None = None) -> Form:
        """The page's first form whose id or action holds `match`, with the submit
        `button` (name, value) and showing the fields of `has` with these values."""

        def fits(f: Form) -> bool:
            if match and not (match in f.attrs.get("id", "") or match in f.attrs.get("action", "")):
                return False
            if match == "" and f.attrs.get("action") in SITE_FORMS:
                return False
            values = f.options.get(button[0], ()) if button else ()
            if button and not any(v == button[1] or v.startswith(button[1] + ":") for v in values):
                return False
            shown = {(name, value) for name, value, _kind in f.fields}
            return all((k, str(v)) in shown for k, v in (has or {}).items())

        found = [f for f in forms_of(self.html) if fits(f)]
        assert found, (match, button, has, self.url, [f.attrs for f in forms_of(self.html)])
        return found[0]

    def submit(
        self, match: str = "", fill: dict | None = None, untick=(), button=(), has=None
    ) -> str:
        """Send the form as shown, with what the user typed or chose (`fill`: a list value
        ticks several boxes) and the boxes they untick, by its `button`; land on the page it
        leads to."""
        form = self.form(match, button, has)
        data: dict[str, list] = {}
        if button:
            data[button[0]] = [button[1]]
        for name, value, _kind in form.fields:
            data.setdefault(name, []).append(value)
        for name in untick:
            data.pop(name, None)
        for name, value in (fill or {}).items():
            if name in form.options and value not in (None, "") and not isinstance(value, list):
                assert str(value) in form.options[name], (name, value, form.options[name])
            data[name] = value if isinstance(value, list) else [value]
        action = form.attrs.get("action") or self.url
        method = form.attrs.get("method", "get").lower()
        if method == "post":
            response = self.client.post(action, data, follow=True)
        else:
            response = self.client.get(action, data, follow=True)
        return self._read(response)

    def link(self, pattern: str) -> str:
        """The address of the first link matching `pattern` (a regex on its href)."""
        found = re.search(r'href="(' + pattern + ')"', self.html)
        assert found, (pattern, self.url)
        return found.group(1)
