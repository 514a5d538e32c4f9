import React from 'react';
import styled from 'styled-components';
import { OrderStatus } from './orders.service';

type Props = { status: OrderStatus; total: number };

const Wrapper = styled.div<{ highlighted?: boolean }>`
  padding: 4px;
`;

export function OrderSummary({ status, total }: Props) {
  return (
    <Wrapper highlighted>
      <strong>{status}</strong> {total}
    </Wrapper>
  );
}

export default OrderSummary;
