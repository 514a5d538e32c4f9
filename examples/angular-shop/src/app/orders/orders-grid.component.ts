import { Component } from '@angular/core';
import { ColDef } from 'ag-grid-community';
import { OrderLinkRenderer } from './order-link.renderer';

@Component({
  selector: 'app-orders-grid',
  template: `<ag-grid-angular [rowData]="rows" [columnDefs]="columnDefs"></ag-grid-angular>`,
})
export class OrdersGridComponent {
  rows = [];
  columnDefs: ColDef[] = [
    { field: 'id', headerName: 'Order', cellRenderer: OrderLinkRenderer },
    { field: 'customer', headerName: 'Customer' },
    { field: 'total', headerName: 'Total' },
  ];
}
