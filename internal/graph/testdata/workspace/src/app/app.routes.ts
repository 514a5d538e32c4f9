import { Routes } from '@angular/router';
import { loadRemoteModule } from '@angular-architects/module-federation';
import { OrdersGridComponent } from './orders/grid/orders-grid.component';
import { OrderDetailComponent } from './orders/detail/order-detail.component';
import { CustomersGridComponent } from './customers/customers-grid.component';
import { CustomerDetailComponent } from './customers/detail/customer-detail.component';

export const routes: Routes = [
  { path: 'orders', component: OrdersGridComponent },
  { path: 'orders/:id', component: OrderDetailComponent },
  { path: 'customers', component: CustomersGridComponent },
  { path: 'customers/:id', component: CustomerDetailComponent },
  {
    path: 'billing',
    loadChildren: () => import('billing/Module').then((m) => m.BillingModule),
  },
  {
    path: 'reports',
    loadChildren: () =>
      loadRemoteModule({ type: 'manifest', remoteName: 'billing', exposedModule: './Reports' }).then((m) => m.ReportsModule),
  },
];
