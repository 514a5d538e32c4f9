package com.acme.billing;

public interface TaxTable {
    double rate(String country);
}
