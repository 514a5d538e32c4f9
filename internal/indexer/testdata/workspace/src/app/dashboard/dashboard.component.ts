import { Component, EventEmitter, Input, Output } from '@angular/core';
import { DataTableComponent } from '@shared/ui/data-table/data-table.component';
import { OrdersService } from '../orders/orders.service';

/** Dashboard shows the latest orders in a data table. */
@Component({
  selector: 'app-dashboard',
  templateUrl: './dashboard.component.html',
  styleUrls: ['./dashboard.component.scss'],
})
export class DashboardComponent {
  @Input() title = 'Orders';
  @Output() rowSelected = new EventEmitter<string>();
  pageSize = 20;

  constructor(private readonly orders: OrdersService) {}

  refreshDashboard(): void {
    this.orders.load(this.pageSize);
  }
}
