/**
 * The calls only a signed-in member's pages make: my petitions, the notification centre, muted
 * petitions, web push devices (docs/notifications.md) and deleting one's data (docs/privacy.md#deleting-your-data).
 * Named `api` + the operationId, like every call (caller.ts).
 */
import { segment, toQueryString } from './caller.ts';
import type { ApiCaller } from './caller.ts';
import type { AccountDeletionResult } from '../domain/privacy-schemas.ts';
import type { FeedPage, FeedPreferences, FeedPreferencesPatch, FeedRequest, MarkAllReadRequest, MutedPetitions, MuteState, MyPetitionsResult, MyPetitionsRequest, UnreadCount } from '../domain/feed-schemas.ts';
import type { PushConfig, PushDevice, PushDevices, PushSubscriptionRequest } from '../domain/push-schemas.ts';

export const apiListMyPetitions = (api: ApiCaller, query: MyPetitionsRequest) => api.request<MyPetitionsResult>('GET', `/api/me/petitions${toQueryString(query)}`);
export const apiListNotifications = (api: ApiCaller, query: FeedRequest = {}) => api.request<FeedPage>('GET', `/api/me/notifications${toQueryString(query)}`);
export const apiGetUnreadNotificationCount = (api: ApiCaller) => api.request<UnreadCount>('GET', '/api/me/notifications/unread-count');
export const apiMarkNotificationRead = (api: ApiCaller, eventId: number) => api.request<UnreadCount>('POST', `/api/me/notifications/${segment(eventId)}/read`);
export const apiMarkAllNotificationsRead = (api: ApiCaller, body: MarkAllReadRequest = {}) => api.request<UnreadCount>('POST', '/api/me/notifications/read-all', body);
export const apiGetNotificationPreferences = (api: ApiCaller) => api.request<FeedPreferences>('GET', '/api/me/notification-preferences');
export const apiUpdateNotificationPreferences = (api: ApiCaller, body: FeedPreferencesPatch) =>
  api.request<FeedPreferences>('PATCH', '/api/me/notification-preferences', body);
export const apiListMutedPetitions = (api: ApiCaller) => api.request<MutedPetitions>('GET', '/api/me/muted-petitions');
export const apiMutePetition = (api: ApiCaller, petitionId: number) => api.request<MuteState>('PUT', `/api/me/muted-petitions/${segment(petitionId)}`);
export const apiUnmutePetition = (api: ApiCaller, petitionId: number) => api.request<MuteState>('DELETE', `/api/me/muted-petitions/${segment(petitionId)}`);
export const apiGetPushConfig = (api: ApiCaller) => api.request<PushConfig>('GET', '/api/push/config');
export const apiListPushSubscriptions = (api: ApiCaller) => api.request<PushDevices>('GET', '/api/me/push-subscriptions');
export const apiSavePushSubscription = (api: ApiCaller, subscription: PushSubscriptionRequest) => api.request<PushDevice>('POST', '/api/me/push-subscriptions', subscription);
export const apiDeletePushSubscription = (api: ApiCaller, deviceId: number) =>
  api.request<{ id: number; removed: true }>('DELETE', `/api/me/push-subscriptions/${segment(deviceId)}`);
export const apiDeleteMyData = (api: ApiCaller, confirmation: string) => api.request<AccountDeletionResult>('POST', '/api/me/deletion', { confirmation });
