import { Injectable } from '@angular/core';

export interface OrderSummary {
  id: string;
  customer: string;
  total: number;
  stock: number;
}

@Injectable({ providedIn: 'root' })
export class OrdersService {
  latestSummaries(): OrderSummary[] {
    return [
      { id: 'A-1001', customer: 'Ada', total: 120, stock: 3 },
      { id: 'A-1002', customer: 'Grace', total: 80, stock: 12 },
    ];
  }
}
