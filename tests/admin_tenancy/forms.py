"""Read an admin page's form the way a browser submits it."""

from html.parser import HTMLParser


class _FormFields(HTMLParser):
    def __init__(self, form_id):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._select = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("id") == self.form_id
            return
        if not self.inside:
            return
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button", "file"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.fields.append((name, attrs.get("value") or ("on" if attrs.get("type") == "checkbox" else "")))
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in attrs:
            self.fields.append((self._select, attrs.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea = [name, ""]

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            name, text = self._textarea
            self.fields.append((name, text.removeprefix("\n")))
            self._textarea = None


def submitted_fields(response, model_name) -> dict:
    """What submitting the admin page's `<model_name>_form` unchanged would POST (one value per name)."""
    parser = _FormFields(f"{model_name}_form")
    parser.feed(response.content.decode())
    return {name: value for name, value in parser.fields if "__prefix__" not in name}
