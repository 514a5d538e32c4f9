import { ColDef } from 'ag-grid-community';
import { CustomerLinkRenderer } from './customer-link.renderer';

export const customerColumns: ColDef[] = [
  { field: 'name', headerName: 'Customer', cellRenderer: CustomerLinkRenderer },
  { field: 'city', headerName: 'City' },
];
