"""Invoice totals."""
from dataclasses import dataclass

from .tax import tax_rate

DEFAULT_CURRENCY = "EUR"


@dataclass
class Invoice:
    """An invoice with line amounts in cents."""

    lines: list

    def total(self) -> int:
        return sum(self.lines) + self._tax()

    def _tax(self) -> int:
        return int(sum(self.lines) * tax_rate("DE"))


def format_invoice(invoice: Invoice) -> str:
    return f"{invoice.total() / 100:.2f} {DEFAULT_CURRENCY}"
