"""The profile's price rows in Settings → Providers: what a million input, cached input
and output tokens cost, in which currency, and the day they were set (or that they came
from the server's model list). Blank prices: requests through it show tokens only."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QLineEdit, QWidget

from ...core.cost import (
    PRICED_BY_SERVER,
    PRICED_BY_YOU,
    PriceInvalid,
    Prices,
    parse_currency,
    parse_price,
)
from ..infra.languages import arg

translate = QCoreApplication.translate  # translate("ProfilePrices", …): lupdate reads it


class PriceRows:
    """Adds the price rows to the provider form; edits are reported through `changed`."""

    def __init__(self, parent: QWidget, form: QFormLayout, changed: Callable[[], None]) -> None:
        self.row = QHBoxLayout()
        self.fields: dict[str, QLineEdit] = {}
        for key, name, hint in (
                ("input", translate("ProfilePrices", "Input"), "0.15"),
                ("cached", translate("ProfilePrices", "Cached input"),
                 translate("ProfilePrices", "as input")),
                ("output", translate("ProfilePrices", "Output"), "0.60")):
            field = QLineEdit(parent)
            field.setObjectName(f"price_{key}")
            field.setAccessibleName(arg(translate(
                "ProfilePrices", "%1 price per million tokens"), name))
            field.setToolTip(field.accessibleName())
            field.setPlaceholderText(hint)
            field.textChanged.connect(lambda _text: changed())
            self.fields[key] = field
            self.row.addWidget(QLabel(name, parent))
            self.row.addWidget(field, 1)
        self.currency = QLineEdit(parent)
        self.currency.setObjectName("price_currency")
        self.currency.setAccessibleName(translate("ProfilePrices", "Currency"))
        self.currency.setPlaceholderText("USD")
        self.currency.setMaxLength(3)
        self.currency.setMaximumWidth(64)
        self.currency.textChanged.connect(lambda _text: changed())
        self.row.addWidget(self.currency)
        form.addRow(translate("ProfilePrices", "Prices per &million tokens:"), self.row)
        self.source = QLabel(parent)
        self.source.setObjectName("priceSource")
        self.source.setWordWrap(True)
        form.addRow("", self.source)
        self._kept: Prices | None = None

    def fill(self, prices: Prices | None) -> None:
        self._kept = prices
        for key in ("input", "cached", "output"):
            value = getattr(prices, key) if prices is not None else None
            self.fields[key].setText(f"{value:f}" if value is not None else "")
        self.currency.setText(prices.currency if prices is not None else "")
        self._say_source(prices)

    def offer(self, prices: Prices | None) -> None:
        """The prices the server's model list states for a model picked from it: filled
        in, marked as the server's, unless the rows hold prices the person set."""
        kept = self._kept
        typed = any(field.text().strip() for field in self.fields.values())
        if prices is None or (typed and (kept is None or kept.source != PRICED_BY_SERVER)):
            return
        self.fill(prices)

    def _say_source(self, prices: Prices | None) -> None:
        if prices is None:
            text = translate("ProfilePrices", "No prices: answers show their tokens, no cost.")
        elif prices.source == PRICED_BY_SERVER:
            text = arg(translate("ProfilePrices", "Read from the server's model list on %1."),
                       prices.set_on)
        else:
            text = arg(translate("ProfilePrices", "Set on %1; a change costs later requests "
                                 "only."), prices.set_on) if prices.set_on else ""
        self.source.setText(text)

    def problems(self) -> list[str]:
        try:
            self.prices()
        except PriceInvalid as err:
            return [arg(translate("ProfilePrices", "Prices: %1."), err)]
        return []

    def prices(self) -> Prices | None:
        """The prices the rows describe (None: blank); the kept ones, date and source
        included, when nothing changed. `PriceInvalid` names what is wrong."""
        texts = {key: field.text().strip() for key, field in self.fields.items()}
        currency = self.currency.text().strip()
        if not any(texts.values()) and not currency:
            return None
        values: dict[str, Decimal | None] = {
            key: parse_price(text, key) if text else None for key, text in texts.items()}
        if not texts["input"] or not texts["output"]:
            raise PriceInvalid(translate("ProfilePrices", "give both the input and the "
                                         "output price"))
        made = Prices(values["input"] or Decimal(0), values["output"] or Decimal(0),
                      values["cached"], parse_currency(currency or "USD"))
        kept = self._kept
        if kept is not None and (kept.input, kept.output, kept.cached, kept.currency) == \
                (made.input, made.output, made.cached, made.currency):
            return kept
        return Prices(made.input, made.output, made.cached, made.currency, "",
                      PRICED_BY_YOU).set_today()
