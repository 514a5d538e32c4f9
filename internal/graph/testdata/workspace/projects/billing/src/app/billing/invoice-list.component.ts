import { Component } from '@angular/core';

@Component({
  selector: 'billing-invoice-list',
  templateUrl: './invoice-list.component.html',
})
export class InvoiceListComponent {
  invoices = [];
}
