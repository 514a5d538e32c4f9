import { Component, inject } from '@angular/core';
import { CustomersService } from '../customers.service';

@Component({
  selector: 'app-customer-detail',
  template: `<h2>{{ (customer$ | async)?.name }}</h2>`,
})
export class CustomerDetailComponent {
  private customers = inject(CustomersService);
  customer$ = this.customers.current();
}
