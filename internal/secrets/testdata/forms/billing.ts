export const stripe = new Stripe("sk_@@live_Xa5h7qAIUtZSl8Szbx3CADYC", { apiVersion: "2024-06-20" });
