import { Component } from '@angular/core';
import { Router } from '@angular/router';
import { ICellRendererAngularComp } from 'ag-grid-angular';
import { ICellRendererParams } from 'ag-grid-community';

@Component({
  selector: 'app-order-link',
  template: `<a class="order-link" (click)="open()">{{ params.value }}</a>`,
})
export class OrderLinkRenderer implements ICellRendererAngularComp {
  params!: ICellRendererParams;

  constructor(private router: Router) {}

  agInit(params: ICellRendererParams): void {
    this.params = params;
  }

  refresh(): boolean {
    return false;
  }

  open(): void {
    this.router.navigate(['/orders', this.params.value]);
  }
}
