import { NgModule } from '@angular/core';
import { RouterModule } from '@angular/router';
import { OrdersGridComponent } from './grid/orders-grid.component';

@NgModule({
  declarations: [OrdersGridComponent],
  imports: [RouterModule.forChild([{ path: '', component: OrdersGridComponent }])],
})
export class OrdersModule {}
