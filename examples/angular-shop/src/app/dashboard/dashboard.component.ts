import { Component, Input, OnInit } from '@angular/core';
import { OrdersService, OrderSummary } from '../orders/orders.service';

/** The landing page: order totals, a stock warning and the latest orders. */
@Component({
  selector: 'app-dashboard',
  templateUrl: './dashboard.component.html',
})
export class DashboardComponent implements OnInit {
  @Input() title = 'Dashboard';
  lowStock = false;
  stockMessage = '';
  summaries: OrderSummary[] = [];

  constructor(private readonly orders: OrdersService) {}

  ngOnInit(): void {
    this.summaries = this.orders.latestSummaries();
    this.lowStock = this.summaries.some((s) => s.stock < 5);
    this.stockMessage = this.lowStock ? 'Some products are nearly out of stock.' : '';
  }
}
