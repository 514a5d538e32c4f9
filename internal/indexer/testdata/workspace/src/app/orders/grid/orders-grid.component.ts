import { Component } from '@angular/core';
import { ColDef } from 'ag-grid-community';
import { StatusCellRenderer } from './status-cell.renderer';

@Component({
  selector: 'app-orders-grid',
  template: '<ag-grid-angular class="ag-theme-alpine" [columnDefs]="columnDefs" [rowData]="rows"></ag-grid-angular>',
})
export class OrdersGridComponent {
  rows = [];
  columnDefs: ColDef[] = [
    { field: 'id', headerName: 'Order', sortable: true },
    { field: 'status', headerName: 'Status', cellRenderer: StatusCellRenderer },
    { field: 'total', valueFormatter: (p) => `$${p.value}` },
  ];
}
