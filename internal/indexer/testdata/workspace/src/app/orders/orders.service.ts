import { Injectable } from '@angular/core';
import { HttpClient } from '@angular/common/http';

export type OrderStatus = 'open' | 'shipped' | 'cancelled';

export enum OrderPriority {
  Low,
  High,
}

export const DEFAULT_PAGE_SIZE = 20;

@Injectable({ providedIn: 'root' })
export class OrdersService {
  constructor(private readonly http: HttpClient) {}

  load(pageSize = DEFAULT_PAGE_SIZE) {
    return this.http.get(`/api/orders?size=${pageSize}`);
  }
}
