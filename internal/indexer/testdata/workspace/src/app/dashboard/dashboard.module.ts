import { NgModule } from '@angular/core';
import { RouterModule, Routes } from '@angular/router';
import { DashboardComponent } from './dashboard.component';
import { DataTableModule } from '@shared/ui/data-table/data-table.module';

const routes: Routes = [
  { path: '', component: DashboardComponent },
  {
    path: 'orders',
    loadChildren: () => import('../orders/orders.module').then((m) => m.OrdersModule),
  },
];

@NgModule({
  declarations: [DashboardComponent],
  imports: [DataTableModule, RouterModule.forChild(routes)],
  exports: [DashboardComponent],
})
export class DashboardModule {}
