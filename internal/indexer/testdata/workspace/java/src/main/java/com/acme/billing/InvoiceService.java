package com.acme.billing;

import com.acme.billing.TaxTable;
import java.util.List;

/** Computes invoice totals. */
public class InvoiceService {
    public static final String DEFAULT_CURRENCY = "EUR";
    private static final int SCALE = 2;

    private final TaxTable taxes;

    public InvoiceService(TaxTable taxes) {
        this.taxes = taxes;
    }

    public long total(List<Long> lines, String country) {
        long sum = lines.stream().mapToLong(Long::longValue).sum();
        return sum + Math.round(sum * taxes.rate(country));
    }

    enum Rounding { UP, DOWN }
}
