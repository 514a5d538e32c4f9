import math


def tax_rate(country: str) -> float:
    return 0.19 if country == "DE" else 0.0
