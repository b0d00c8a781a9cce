"""The PDF of an invoice, rendered with fpdf2 (pure Python, no system libraries).

The page shows the organization, the invoice number and status, the issue and due dates, the contact's name (never
the e-mail: the link needs no credential, and the API shows contact e-mails only with `contacts:read`), each line
(description, quantity, unit price and amount before tax), then subtotal, tax, total, amount paid and amount due,
all in the invoice's currency at its precision (JPY none, KWD three decimals, else two).

The built-in Helvetica covers Windows-1252 (Western European text and the euro sign); a character outside it is
printed as `?`, so a name in another script never breaks the PDF.
"""

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from apps.kernel.money import format_money

from .models import Invoice, InvoiceLine

ENCODING = "windows-1252"
FONT = "Helvetica"
COLUMNS = (("Description", 95, "LEFT"), ("Qty", 15, "RIGHT"), ("Unit price", 35, "RIGHT"), ("Amount", 35, "RIGHT"))


def printable(text) -> str:
    """`text` as the built-in font can print it (characters outside Windows-1252 become `?`)."""
    return str(text or "").encode(ENCODING, errors="replace").decode(ENCODING)


def contact_name(invoice: Invoice) -> str | None:
    contact = invoice.contact
    if contact is None:
        return None
    return contact.name or None


class _Document(FPDF):
    def __init__(self, footer_text: str):
        super().__init__(format="A4")
        self.core_fonts_encoding = ENCODING
        self.footer_text = footer_text
        self.set_auto_page_break(auto=True, margin=20)
        self.set_margins(15, 15, 15)

    def footer(self):
        self.set_y(-15)
        self.set_font(FONT, size=8)
        self.set_text_color(110)
        self.cell(0, 5, self.footer_text, align="LEFT")
        self.cell(0, 5, f"Page {self.page_no()}/{{nb}}", align="RIGHT")
        self.set_text_color(0)


def _line(pdf: FPDF, text: str, *, size=10, style="", height=5.5, align="LEFT"):
    pdf.set_font(FONT, style=style, size=size)
    pdf.cell(0, height, printable(text), align=align, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _label_value(pdf: FPDF, label: str, value: str, *, width=40, style=""):
    pdf.set_font(FONT, style="B", size=10)
    pdf.cell(width, 5.5, printable(label))
    pdf.set_font(FONT, style=style, size=10)
    pdf.cell(0, 5.5, printable(value), new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def render_invoice_pdf(invoice: Invoice, lines: list[InvoiceLine]) -> bytes:
    """The PDF of `invoice` (its organization, contact and club loaded) with `lines` in order."""
    currency = invoice.currency

    def amount(value) -> str:
        # `1,234.50 EUR`, `1,235 JPY`: the ISO code, not a symbol the built-in font may not have (₹, ₩)
        return format_money(value, currency, "en", code=True)

    organization = invoice.organization
    pdf = _Document(printable(f"{organization.name} - invoice {invoice.number}"))
    pdf.set_title(printable(f"Invoice {invoice.number}"))
    pdf.set_author(printable(organization.name))
    pdf.set_creator("Platform invoices")
    pdf.add_page()

    _line(pdf, organization.name, size=16, style="B", height=8)
    if invoice.club is not None:
        _line(pdf, invoice.club.name, size=10)
    pdf.ln(6)
    _line(pdf, f"Invoice {invoice.number}", size=20, style="B", height=10)
    pdf.ln(2)
    _label_value(pdf, "Status", invoice.get_status_display())
    _label_value(pdf, "Issue date", invoice.issue_date.isoformat())
    _label_value(pdf, "Due date", invoice.due_date.isoformat())
    _label_value(pdf, "Billed to", contact_name(invoice) or "-")
    pdf.ln(6)

    pdf.set_font(FONT, size=10)
    with pdf.table(
        col_widths=tuple(width for _, width, _ in COLUMNS),
        text_align=tuple(align for _, _, align in COLUMNS),
        width=sum(width for _, width, _ in COLUMNS),
        align="LEFT",
        line_height=6,
        padding=(1, 2),
        borders_layout="HORIZONTAL_LINES",
        repeat_headings=1,
    ) as table:
        heading = table.row()
        for title, _, _ in COLUMNS:
            heading.cell(title)
        for line in lines:
            row = table.row()
            row.cell(printable(line.description))
            row.cell(str(line.quantity))
            row.cell(amount(line.unit_price))
            row.cell(amount(line.amount))
    pdf.ln(4)

    totals = [
        ("Subtotal", amount(invoice.subtotal), ""),
        ("Tax", amount(invoice.tax), ""),
        ("Total", amount(invoice.total), "B"),
        ("Amount paid", amount(invoice.amount_paid), ""),
        ("Amount due", amount(invoice.amount_due), "B"),
    ]
    label_x = pdf.l_margin + sum(width for _, width, _ in COLUMNS) - 80
    for label, value, style in totals:
        pdf.set_x(label_x)
        pdf.set_font(FONT, style=style, size=10 if not style else 11)
        pdf.cell(45, 6.5, label)
        pdf.cell(35, 6.5, value, align="RIGHT", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(6)
    _line(pdf, f"Amounts in {currency}. Unit prices and line amounts are before tax.", size=8)
    return bytes(pdf.output())
