import { Component } from '@angular/core';
import { ICellRendererAngularComp } from 'ag-grid-angular';

@Component({
  selector: 'app-order-link',
  template: `<a [routerLink]="['/orders', value]">{{ value }}</a>`,
})
export class OrderLinkRenderer implements ICellRendererAngularComp {
  value = '';
  agInit(params: { value: string }): void {
    this.value = params.value;
  }
  refresh(): boolean {
    return false;
  }
}
