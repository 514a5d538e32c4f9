import { Component } from '@angular/core';
import { ColDef } from 'ag-grid-community';
import { OrderLinkRenderer } from './order-link.renderer';
import { OrdersService } from '../orders.service';

@Component({
  selector: 'app-orders-grid',
  templateUrl: './orders-grid.component.html',
})
export class OrdersGridComponent {
  columnDefs: ColDef[] = [
    { field: 'id', headerName: 'Order', cellRenderer: OrderLinkRenderer },
    { field: 'customer', headerName: 'Customer', sortable: true },
  ];
  rowData$ = this.orders.list();

  constructor(private orders: OrdersService) {}
}
