export interface Order {
  id: string;
  customer: string;
  total: number;
  pending: boolean;
}

export type OrderStatus = 'open' | 'paid' | 'cancelled';
