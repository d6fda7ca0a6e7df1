// A seller's buyers and stock of devices, and handing a device over to a buyer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { adminDeviceSchema, buyerSchema, ownerChangeResponseSchema } from '#core/contracts/admin.contract.ts';
import { fleetSchema } from '#core/contracts/device-health.contract.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { queryKeys } from '#web/lib/query-keys.ts';

const KEY = queryKeys.seller.all;
export const useBuyers = () =>
  useQuery({
    queryKey: queryKeys.seller.buyers,
    queryFn: () => apiRequest('/api/seller/buyers', { schema: z.array(buyerSchema) }),
  });
export const useStock = () =>
  useQuery({
    queryKey: queryKeys.seller.stock,
    queryFn: () => apiRequest('/api/seller/stock', { schema: z.array(adminDeviceSchema) }),
  });
/** The health of my stock and my buyers' devices (never another seller's). */
export const useSellerFleet = () =>
  useQuery({
    queryKey: queryKeys.seller.fleet,
    queryFn: () => apiRequest('/api/seller/fleet', { schema: fleetSchema }),
    refetchInterval: 16_000,
  });
export function useSell() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { buyer: string; deviceId: string }) =>
      apiRequest('/api/seller/assign', { method: 'POST', body: i, schema: ownerChangeResponseSchema }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}
