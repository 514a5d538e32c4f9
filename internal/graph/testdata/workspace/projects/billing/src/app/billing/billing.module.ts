import { NgModule } from '@angular/core';
import { CommonModule } from '@angular/common';
import { RouterModule } from '@angular/router';
import { InvoiceListComponent } from './invoice-list.component';

@NgModule({
  declarations: [InvoiceListComponent],
  imports: [CommonModule, RouterModule.forChild([{ path: '', component: InvoiceListComponent }])],
})
export class BillingModule {}
