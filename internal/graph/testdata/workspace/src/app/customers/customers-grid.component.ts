import { Component } from '@angular/core';
import { customerColumns } from './customers.columns';

@Component({
  selector: 'app-customers-grid',
  template: `
    <ag-grid-angular class="ag-theme-alpine" [columnDefs]="columns" [rowData]="rows"></ag-grid-angular>
  `,
})
export class CustomersGridComponent {
  columns = customerColumns;
  rows = [];
}
