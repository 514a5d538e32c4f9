export interface Customer {
  id: string;
  name: string;
  city: string;
}
